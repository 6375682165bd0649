#!/bin/sh
# Installs a built trend under PREFIX: the binary (its tips are compiled in),
# the man page and the shell completions, all made by the binary itself from
# its command catalogue. `make install PREFIX=…` builds release and runs this.
#
# Usage: scripts/install.sh BINARY PREFIX
set -eu
binary=$1
prefix=$2
mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
         "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$prefix/bin/trend"
"$prefix/bin/trend" --man > "$prefix/share/man/man1/trend.1"
"$prefix/bin/trend" --completions bash > "$prefix/share/bash-completion/completions/trend"
"$prefix/bin/trend" --completions zsh > "$prefix/share/zsh/site-functions/_trend"
"$prefix/bin/trend" --completions fish > "$prefix/share/fish/vendor_completions.d/trend.fish"
echo "Installed trend in $prefix/bin, its man page and bash, zsh and fish completions."
