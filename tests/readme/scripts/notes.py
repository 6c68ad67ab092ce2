# README example: a script without the exec permission (mode 0644).
print("notes")
