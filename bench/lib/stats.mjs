// Percentiles and plain-text tables for the reports.

/** The p-th percentile (0..100) of ascending `sorted` by nearest rank; NaN when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) {
    return NaN;
  }
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const ms = (value) => (Number.isFinite(value) ? value.toFixed(2) : "-");
export const rate = (value) => (Number.isFinite(value) ? value.toFixed(0) : "-");

/** A table with a header row, columns padded to their widest cell, numbers right-aligned. */
export function table(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (row) => row.map((cell, i) => (typeof cell === "number" || /^[-+]?[\d.]+%?$|^-$/.test(String(cell))
    ? String(cell).padStart(widths[i]) : String(cell).padEnd(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** A target line: `PASS`/`FAIL`, what was required, what was measured. */
export function verdict(ok, requirement, measured) {
  return `${ok ? "PASS" : "FAIL"}  ${requirement}: ${measured}`;
}
