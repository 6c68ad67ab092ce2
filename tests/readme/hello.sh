#!/bin/sh
echo "hello from a README example"
