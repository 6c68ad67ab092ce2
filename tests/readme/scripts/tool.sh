#!/bin/sh
# README example: an executable script (mode 0755).
echo "tool ran"
