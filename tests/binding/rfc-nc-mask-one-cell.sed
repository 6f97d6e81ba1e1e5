# nc's mask in one cell: the RFC reads it with of_property_read_u64, which
# needs 8 bytes.
# expect: constraints:nc:mask: 'oneOf' conditional failed, one must be fixed:
s|mask = <0x0 0x8000>;|mask = <0x8000>;|
