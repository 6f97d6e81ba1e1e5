# A code class's mask in one cell, where a 64-bit value takes two.
# expect: code-classes:fab-match:mask: 
s/^([[:space:]]*)mask = <0x0 0xff0fe>;/\1mask = <0xff0fe>;/
