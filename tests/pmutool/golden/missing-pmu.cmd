status 3
--pmu
/nonexistent/power10.yaml
list
