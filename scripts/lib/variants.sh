# shellcheck shell=bash
# The part scripts/device-variants.sh and scripts/prebuild-variants.sh share; source it, then
#   variants_make ROOT VARIANTS WORK   one source tree per variant under WORK/<name> (lines:
#                                      see device-variants.sh), their names in VARIANT_NAMES
#                                      ("base", the unmodified ROOT, first). Fails on a line
#                                      that does not apply or changes nothing.

variants_make() {
  local root=$1 file_list=$2 work=$3 name file expr before
  VARIANT_NAMES=(base)
  while read -r name file expr; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    if [ ! -d "$work/$name" ]; then
      mkdir -p "$work/$name"
      cp -r "$root"/{CMakeLists.txt,cmake,include,src,tools,tests,bench} "$work/$name"/
      VARIANT_NAMES+=("$name")
    fi
    if [[ "$expr" == "<"* ]]; then  # '<path': the file replaced by that one (another version)
      cp "$root/${expr#<}" "$work/$name/$file"
    elif [[ "$expr" == "@"* ]]; then  # '@path': a diff against the tree
      if command -v patch > /dev/null; then
        patch -s --batch --forward --no-backup-if-mismatch -F0 -p1 -d "$work/$name" < "$root/${expr#@}"
      else
        (cd "$work/$name" && git apply "$root/${expr#@}")
      fi || { echo "variant $name: $expr does not apply" >&2; return 1; }
    else
      before=$(md5sum < "$work/$name/$file")
      sed -i -e "$expr" "$work/$name/$file"
      # A probe whose pattern no longer matches would silently time the base kernel.
      if [ "$before" = "$(md5sum < "$work/$name/$file")" ]; then
        echo "variant $name: '$expr' changed nothing in $file" >&2
        return 1
      fi
    fi
  done < "$file_list"
}
