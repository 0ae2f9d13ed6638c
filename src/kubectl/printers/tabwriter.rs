//! Go's `text/tabwriter` (`format`/`writeLines`), ported faithfully: `describe` relies on its
//! column blocks (a line without a tab ends every column, so alignment restarts).

// ---------------------------------------------------------------------------------------------
// Go text/tabwriter.
// ---------------------------------------------------------------------------------------------

/// Lays out tab-separated text like Go's `text/tabwriter` with padchar ' ' and no flags.
///
/// A cell is text terminated by a tab; the text after the last tab of a line is not part of any
/// column. A *column block* is a run of consecutive lines that all have a cell in that column;
/// each block gets its own width = max(minwidth, widest cell + padding). So a line with fewer
/// tabs ends the blocks to its right, and a line with no tab restarts alignment entirely.
pub(crate) fn tabwriter(text: &str, minwidth: usize, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut widths = Vec::new();
    tw_format(&lines, &mut widths, 0, lines.len(), minwidth, padding, &mut out);
    out
}

pub(super) fn tw_format(lines: &[Vec<&str>], widths: &mut Vec<usize>, line0: usize, line1: usize, minwidth: usize, padding: usize, out: &mut String) {
    let column = widths.len();
    let mut line0 = line0;
    let mut this = line0;
    while this < line1 {
        if column + 1 >= lines[this].len() {
            // no cell in this column on this line
            this += 1;
            continue;
        }
        // print unprinted lines until the beginning of the block
        tw_write_lines(lines, widths, line0, this, out);
        line0 = this;
        let mut width = minwidth;
        while this < line1 {
            let line = &lines[this];
            if column + 1 >= line.len() {
                break;
            }
            let w = line[column].chars().count() + padding;
            if w > width {
                width = w;
            }
            this += 1;
        }
        widths.push(width);
        tw_format(lines, widths, line0, this, minwidth, padding, out);
        widths.pop();
        line0 = this;
    }
    tw_write_lines(lines, widths, line0, line1, out);
}

pub(super) fn tw_write_lines(lines: &[Vec<&str>], widths: &[usize], line0: usize, line1: usize, out: &mut String) {
    for i in line0..line1 {
        for (j, c) in lines[i].iter().enumerate() {
            out.push_str(c);
            if let Some(w) = widths.get(j) {
                let n = w.saturating_sub(c.chars().count());
                out.extend(std::iter::repeat_n(' ', n));
            }
        }
        if i + 1 != lines.len() {
            out.push('\n');
        }
    }
}

