# `med(s)`: the median of the space-separated numbers in `s`, with their
# range, as "M (LO-HI)" to two decimals. Shared by the A/B scripts
# (write_ab.sh, portable_ab.sh), which prepend it to their awk programs.
function med(s,    a, k, i, j, t) {
  k = split(s, a, " ")
  for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
  return sprintf("%.2f (%.2f-%.2f)", (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2, a[1], a[k])
}
