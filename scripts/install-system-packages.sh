#!/usr/bin/env bash
# Installs the C libraries SwiftWebImage links against (and pkg-config to find them).
# Uses apt-get directly as root and through sudo otherwise; does nothing when all are present.
set -euo pipefail

packages=(pkg-config libturbojpeg0-dev libjpeg62-turbo-dev libspng-dev libdeflate-dev zlib1g-dev libgif-dev libwebp-dev openssl time)
# nginx, for the image server's fleet (scripts/fleet.sh and its test).
packages+=(nginx-light)
# The default package traits: TIFF needs libtiff, AVIF libavif, HEIF libheif, JXL libjxl.
packages+=(libtiff-dev libavif-dev libheif-dev libjxl-dev)
# libjxl's djxl and cjxl, for the tests that rebuild a JPEG from its lossless JPEG XL.
packages+=(libjxl-tools)
# The ColorManagement trait: Little CMS 2.
packages+=(liblcms2-dev)
# The SVG trait: librsvg (with cairo), and its rsvg-convert for the resvg suite comparison;
# libxml2 for the screen that reads each document before librsvg does.
packages+=(librsvg2-dev librsvg2-bin libxml2-dev)
# Chromium, headless, for the test that loads the server's demo page as a browser does.
packages+=(chromium)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    run=()
elif command -v sudo >/dev/null 2>&1; then
    run=(sudo)
else
    echo "error: need root or sudo to install: ${missing[*]}" >&2
    exit 1
fi
echo "Installing ${missing[*]}" >&2
"${run[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
