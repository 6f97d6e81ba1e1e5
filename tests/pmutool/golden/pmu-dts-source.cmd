status 3
--pmu
@SRC@/dts/power10.dts
list
