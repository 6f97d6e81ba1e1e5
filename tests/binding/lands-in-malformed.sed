# lands-in must name REG.FIELD.
# expect: pmu_dts@0: evt_code_format:IFM:lands-in:0: 'MMCRA IFM' does not match
s/lands-in = "MMCRA.IFM";/lands-in = "MMCRA IFM";/
