package main

import (
	"bytes"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/table"
)

// Help is fitted to the terminal (table.Width: COLUMNS, else the terminal's,
// else 100): urfave's text is rendered whole, then each line longer than the
// width is wrapped under its second column (table.FitLines).
func init() {
	cli.HelpPrinter = func(w io.Writer, templ string, data any) {
		var buf bytes.Buffer
		cli.HelpPrinterCustom(&buf, templ, data, nil)
		io.WriteString(w, table.FitLines(buf.String(), table.Width(w)))
	}
}
