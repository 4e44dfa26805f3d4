.shared c 8 own_line
.shared f 8 with c
.shared d 8 with c
.shared v 8 own_line
