status 2
--hv-mode
list
