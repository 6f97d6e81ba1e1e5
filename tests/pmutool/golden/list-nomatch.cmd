status 1
list
NO_SUCH_EVENT*
