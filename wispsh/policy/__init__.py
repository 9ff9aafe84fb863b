"""How bad a part is: levels and reasons for each part and for the whole line, and the deny patterns."""
