# A preset combined by a kind PAPI does not have.
# expect: 'mul' is not one of ['add', 'sub', 'postfix']
s/^([[:space:]]*)derived = "add";$/\1derived = "mul";/
