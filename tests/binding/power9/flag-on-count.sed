# A flag value on an adder (count) constraint, which counts events instead.
# expect: constraints:nc:flag: False schema does not allow
s/^([[:space:]]*)nc \{$/&\n\1\tflag = "only when pmc is 4";/
