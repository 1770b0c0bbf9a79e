"""The README's /points table is `rmtsweep schema`'s output: the table in the code is its one owner."""
import argparse
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--binary", required=True)
parser.add_argument("--readme", required=True)
args = parser.parse_args()
table = subprocess.run([args.binary, "schema"], capture_output=True, text=True, check=True).stdout
readme = open(args.readme, encoding="utf-8").read()
begin, end = "<!-- rmtsweep schema: begin -->\n", "<!-- rmtsweep schema: end -->"
if begin not in readme or end not in readme:
    sys.exit("README.md has no block between the rmtsweep schema markers")
block = readme.split(begin, 1)[1].split(end, 1)[0]
if block != table:
    sys.exit("README.md's /points table differs from `rmtsweep schema`; paste its output between the markers:\n"
             + table)
print("README.md's /points table is rmtsweep schema's output")
