"""om_strict.py - the strict OpenMetrics parser of Debian's
python3-prometheus-client, for the tests here, with one bug of its 0.16
corrected.

Debian 12's prometheus_client 0.16 compares two timestamps wrongly
(Timestamp.__gt__: "sec > other.sec or nsec > other.nsec", so 2.1 > 3.0),
and would call a series going from 602.938 to 603.042 "backwards"; upstream
fixed the comparison since.  Only that comparison is corrected, when it is
the wrong one, so that the parser's every other rule still applies.
"""
import sys

try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families  # noqa: F401
    from prometheus_client.samples import Timestamp
except ImportError:
    sys.exit(f"{sys.argv[0]}: no prometheus_client: install the Debian package "
             "python3-prometheus-client")

if Timestamp(2, 900000000) > Timestamp(3, 0):
    Timestamp.__gt__ = lambda self, other: (self.sec, self.nsec) > (other.sec, other.nsec)
