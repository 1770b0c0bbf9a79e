"""The values `rmtsweep plot` accepts, apart from the figures (which import matplotlib): the command line refuses
a bad --format or --dpi before it imports them."""

# Below 10 dpi text is unreadable; 1200 is past print resolution, and Agg refuses 2^16 pixels a side.
DPI_MIN, DPI_MAX = 10, 1200

# The file formats of `rmtsweep plot --format`.
FORMATS = ("png", "pdf", "svg")
