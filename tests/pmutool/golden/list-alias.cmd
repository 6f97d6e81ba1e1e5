status 0
list
--json
instructions
