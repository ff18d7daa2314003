"""Every change to an army: operations in, commands applied through one pipeline, saved with a revision, checked, answered."""
