status 2
--frob
list
