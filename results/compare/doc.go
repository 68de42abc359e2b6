// Package compare compares two sets of result files benchmark by benchmark:
// the ratio of medians with a bootstrap confidence interval, a
// Mann-Whitney U test for the verdict (faster, slower, no difference), the
// geomean of the ratios, and the comparison as a table, markdown, CSV or
// JSON.
package compare
