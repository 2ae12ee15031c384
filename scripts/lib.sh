# Shared by bootstrap.sh and robustness.sh (sourced, not run).

# Installs the Debian packages given that are not installed yet (apt, as root or through sudo).
install_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "Installing: ${missing[*]}"
  local sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ccache shared between checkouts: paths relative to the checkout, so a fresh clone (as CI makes) hits it.
use_ccache() {
  export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$1}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
}
