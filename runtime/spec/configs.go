package spec

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/clmeter/clmeter/fail"
)

// DefaultMaxConfigs is the most configurations a target may sweep unless
// --max-configs raises it (docs/COMMANDS.md, "Limits"): each is measured, for
// a second or more, and all are held in memory before the first.
const DefaultMaxConfigs = 10_000

// Configs is the number of configurations of k's axes (the product of their
// value counts, 1 with no axes), counted without expanding them; ok is false
// when the count does not fit an int64.
func (k *Kernel) Configs() (n int64, ok bool) {
	n = 1
	for _, ax := range k.Axes {
		c := int64(len(ax.Values))
		if c != 0 && n > math.MaxInt64/c {
			return 0, false
		}
		n *= c
	}
	return n, true
}

// checkConfigs refuses more configurations than k.MaxConfigs (or
// DefaultMaxConfigs) with one line naming the count and the limit.
func (k *Kernel) checkConfigs() error {
	n, ok := k.Configs()
	limit := k.MaxConfigs
	if limit <= 0 {
		limit = DefaultMaxConfigs
	}
	if ok && n <= limit {
		return nil
	}
	count, parts := big.NewInt(1), make([]string, len(k.Axes))
	for i, ax := range k.Axes {
		count.Mul(count, big.NewInt(int64(len(ax.Values))))
		parts[i] = fmt.Sprintf("%s %d", ax.Name, len(ax.Values))
		if i == 0 {
			parts[i] = "axes " + parts[i]
		}
	}
	return TooManyConfigs(count, strings.Join(parts, " x "), limit)
}

// TooManyConfigs is the error of a sweep of count configurations (made of
// what, e.g. "axes N 100 x T 100") past limit, of kind fail.Usage.
func TooManyConfigs(count *big.Int, what string, limit int64) error {
	raise := "--max-configs N"
	if count.IsInt64() && count.Int64() <= 1e9 {
		raise = "--max-configs " + count.String()
	}
	return fail.Usagef("%s configurations (%s) are more than the limit of %d: give fewer values, or raise the limit with %s", count, what, limit, raise)
}
