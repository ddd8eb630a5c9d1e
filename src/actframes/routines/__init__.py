"""Routines: recurring step sequences mined across days, their guarded plans, the R and
h instruments, and guarded replay in a real browser."""
