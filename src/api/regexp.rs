//! Regular expressions as an OpenAPI `pattern` uses them: kube-openapi's validator compiles a
//! schema's `pattern` with Go's `regexp` (RE2 syntax) and reports `… in body should match
//! '<pattern>'` when `MatchString` is false (unanchored: the pattern may match anywhere).
//!
//! Real counterpart: Go's `regexp/syntax` (parse) and `regexp` (`MatchString`), used by
//! `k8s.io/kube-openapi/pkg/validation/validate` (`validatePattern`).
//!
//! What kubesim simplifies: the RE2 subset CRD schemas use — literals, `.`, `^`, `$`, classes
//! (`[a-z0-9-]`, `[^…]`, `\d \w \s \D \W \S`, `[[:alpha:]]`-style names are not), groups
//! (`(…)`, `(?:…)`), alternation, and the greedy quantifiers `* + ? {n} {n,} {n,m}` (lazy ones
//! match as greedy: `MatchString` only asks whether there is a match). Matching backtracks with a
//! step and nesting budget instead of RE2's linear-time automaton: a match over the budget (a
//! catastrophic pattern, or a subject of more than a few hundred characters under one repeat)
//! counts as no match; syntax outside the subset is reported as not compiling.

/// One parsed node.
#[derive(Clone, Debug, PartialEq)]
enum Node {
    /// A class of characters (a literal is a one-character class).
    Class { ranges: Vec<(char, char)>, negated: bool },
    /// `.`: any character but newline.
    Any,
    Start,
    End,
    Group(Box<Node>),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat { node: Box<Node>, min: usize, max: Option<usize> },
}

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Regexp {
    root: Node,
}

/// Steps a match may take before it gives up.
const STEP_BUDGET: usize = 200_000;

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    src: &'a str,
    /// Groups open at the position (bounded: the parser recurses per group).
    depth: usize,
}

fn class_escape(c: char) -> Option<(Vec<(char, char)>, bool)> {
    let digits = vec![('0', '9')];
    let word = vec![('0', '9'), ('A', 'Z'), ('a', 'z'), ('_', '_')];
    let space = vec![('\t', '\n'), ('\x0c', '\r'), (' ', ' ')];
    Some(match c {
        'd' => (digits, false),
        'D' => (digits, true),
        'w' => (word, false),
        'W' => (word, true),
        's' => (space, false),
        'S' => (space, true),
        _ => return None,
    })
}

fn literal_escape(c: char) -> Option<char> {
    match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'f' => Some('\x0c'),
        'v' => Some('\x0b'),
        c if c.is_ascii_punctuation() => Some(c),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    fn err(&self, what: &str) -> String {
        format!("error parsing regexp: {}: `{}`", what, self.src)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn alt(&mut self) -> Result<Node, String> {
        let mut branches = vec![self.concat()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            branches.push(self.concat()?);
        }
        Ok(if branches.len() == 1 { branches.pop().unwrap_or(Node::Concat(Vec::new())) } else { Node::Alt(branches) })
    }

    fn concat(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantified(atom)?;
            items.push(atom);
        }
        Ok(Node::Concat(items))
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let mut node = atom;
        loop {
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => {
                    let save = self.pos;
                    match self.counts() {
                        Some(mm) => mm,
                        None => {
                            // a `{` that is not a repetition is a literal
                            self.pos = save;
                            return Ok(node);
                        }
                    }
                }
                _ => return Ok(node),
            };
            // past the operator (or the `}` of a count)
            self.pos += 1;
            if matches!(node, Node::Repeat { .. }) {
                return Err(self.err("invalid nested repetition operator"));
            }
            // a lazy marker: `MatchString` does not care which match is found
            if self.peek() == Some('?') {
                self.pos += 1;
            }
            if max.map(|m| m > 1000).unwrap_or(false) || min > 1000 {
                return Err(self.err("invalid repeat count"));
            }
            node = Node::Repeat { node: Box::new(node), min, max };
        }
    }

    /// `{n}`, `{n,}`, `{n,m}` at the position (the `{`); leaves the position at the `}`.
    fn counts(&mut self) -> Option<(usize, Option<usize>)> {
        self.pos += 1;
        let start = self.pos;
        while self.peek().map(|c| c.is_ascii_digit()).unwrap_or(false) {
            self.pos += 1;
        }
        let min: usize = self.chars[start..self.pos].iter().collect::<String>().parse().ok()?;
        let max = if self.peek() == Some(',') {
            self.pos += 1;
            let s = self.pos;
            while self.peek().map(|c| c.is_ascii_digit()).unwrap_or(false) {
                self.pos += 1;
            }
            if s == self.pos {
                None
            } else {
                Some(self.chars[s..self.pos].iter().collect::<String>().parse().ok()?)
            }
        } else {
            Some(min)
        };
        if self.peek() != Some('}') {
            return None;
        }
        if max.map(|m| m < min).unwrap_or(false) {
            return None;
        }
        Some((min, max))
    }

    fn atom(&mut self) -> Result<Node, String> {
        let c = self.peek().ok_or_else(|| self.err("missing argument"))?;
        self.pos += 1;
        match c {
            '.' => Ok(Node::Any),
            '^' => Ok(Node::Start),
            '$' => Ok(Node::End),
            '*' | '+' | '?' => Err(self.err(&format!("missing argument to repetition operator: `{}`", c))),
            '(' => {
                // regexp/syntax's maxHeight guards its own stack the same way
                if self.depth >= 200 {
                    return Err(self.err("expression nests too deeply"));
                }
                if self.peek() == Some('?') {
                    if self.chars.get(self.pos + 1) == Some(&':') {
                        self.pos += 2;
                    } else {
                        return Err(self.err("invalid or unsupported Perl syntax"));
                    }
                }
                self.depth += 1;
                let inner = self.alt();
                self.depth -= 1;
                let inner = inner?;
                if self.peek() != Some(')') {
                    return Err(self.err("missing closing )"));
                }
                self.pos += 1;
                Ok(Node::Group(Box::new(inner)))
            }
            '[' => self.class(),
            '\\' => {
                let e = self.peek().ok_or_else(|| self.err("trailing backslash at end of expression"))?;
                self.pos += 1;
                if let Some((ranges, negated)) = class_escape(e) {
                    return Ok(Node::Class { ranges, negated });
                }
                match literal_escape(e) {
                    Some(l) => Ok(Node::Class { ranges: vec![(l, l)], negated: false }),
                    None => Err(self.err("invalid escape sequence")),
                }
            }
            c => Ok(Node::Class { ranges: vec![(c, c)], negated: false }),
        }
    }

    fn class(&mut self) -> Result<Node, String> {
        let mut negated = false;
        if self.peek() == Some('^') {
            negated = true;
            self.pos += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.peek().ok_or_else(|| self.err("missing closing ]"))?;
            self.pos += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = self.peek().ok_or_else(|| self.err("missing closing ]"))?;
                self.pos += 1;
                if let Some((rs, neg)) = class_escape(e) {
                    if neg {
                        return Err(self.err("invalid or unsupported Perl syntax"));
                    }
                    ranges.extend(rs);
                    continue;
                }
                literal_escape(e).ok_or_else(|| self.err("invalid escape sequence"))?
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).map(|n| *n != ']').unwrap_or(false) {
                self.pos += 1;
                let mut hi = self.peek().ok_or_else(|| self.err("missing closing ]"))?;
                self.pos += 1;
                if hi == '\\' {
                    let e = self.peek().ok_or_else(|| self.err("missing closing ]"))?;
                    self.pos += 1;
                    hi = literal_escape(e).ok_or_else(|| self.err("invalid escape sequence"))?;
                }
                if hi < lo {
                    return Err(self.err("invalid character class range"));
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Node::Class { ranges, negated })
    }
}

impl Regexp {
    /// `regexp.Compile`. Err: Go's `error parsing regexp: …` text (or kubesim's limit).
    pub fn compile(pattern: &str) -> Result<Regexp, String> {
        let mut p = Parser { chars: pattern.chars().collect(), pos: 0, src: pattern, depth: 0 };
        let root = p.alt()?;
        if p.pos < p.chars.len() {
            return Err(p.err("unexpected )"));
        }
        Ok(Regexp { root })
    }

    /// `MatchString`: whether the pattern matches anywhere in `s`. None: over the step budget, or
    /// the backtracking would nest deeper than [`DEPTH_BUDGET`] (a long subject under a repeat).
    pub fn is_match(&self, s: &str) -> Option<bool> {
        let chars: Vec<char> = s.chars().collect();
        let mut b = Budget { steps: 0, depth: 0, exhausted: false };
        for start in 0..=chars.len() {
            if m(&self.root, &chars, start, &mut b, &mut |_, _| true) {
                return Some(true);
            }
            if b.exhausted {
                return None;
            }
        }
        Some(false)
    }
}

/// What a match may spend: steps, and nesting of the backtracking (the native stack).
struct Budget {
    steps: usize,
    depth: usize,
    exhausted: bool,
}

/// Nested matching calls a match may hold at once (each repetition of a quantified atom nests one
/// more): bounded so a long subject cannot exhaust the page's stack.
const DEPTH_BUDGET: usize = 200;

fn class_has(ranges: &[(char, char)], negated: bool, c: char) -> bool {
    ranges.iter().any(|(lo, hi)| *lo <= c && c <= *hi) != negated
}

type Cont<'a> = &'a mut dyn FnMut(usize, &mut Budget) -> bool;

/// Matches `node` at `i`, then calls `k` with the end position; true when `k` accepted.
fn m(node: &Node, s: &[char], i: usize, b: &mut Budget, k: Cont) -> bool {
    b.steps += 1;
    if b.steps > STEP_BUDGET || b.depth > DEPTH_BUDGET {
        b.exhausted = true;
        return false;
    }
    b.depth += 1;
    let r = match node {
        Node::Class { ranges, negated } => i < s.len() && class_has(ranges, *negated, s[i]) && k(i + 1, b),
        Node::Any => i < s.len() && s[i] != '\n' && k(i + 1, b),
        Node::Start => i == 0 && k(i, b),
        Node::End => i == s.len() && k(i, b),
        Node::Group(inner) => m(inner, s, i, b, k),
        Node::Alt(bs) => bs.iter().any(|x| m(x, s, i, b, k)),
        Node::Concat(items) => concat(items, s, i, b, k),
        Node::Repeat { node, min, max } => repeat(node, *min, *max, 0, s, i, b, k),
    };
    b.depth -= 1;
    r
}

fn concat(items: &[Node], s: &[char], i: usize, b: &mut Budget, k: Cont) -> bool {
    match items.split_first() {
        None => k(i, b),
        Some((first, rest)) => m(first, s, i, b, &mut |j, b| concat(rest, s, j, b, k)),
    }
}

#[allow(clippy::too_many_arguments)]
fn repeat(node: &Node, min: usize, max: Option<usize>, count: usize, s: &[char], i: usize, b: &mut Budget, k: Cont) -> bool {
    // one character a time (`[a-z]*`, `\d+`, `.?`): the longest run, then shorter ones, without
    // nesting a call per character
    let one = |c: char| match node {
        Node::Class { ranges, negated } => Some(class_has(ranges, *negated, c)),
        Node::Any => Some(c != '\n'),
        _ => None,
    };
    if matches!(node, Node::Class { .. } | Node::Any) {
        let limit = max.unwrap_or(usize::MAX);
        let run = s[i..].iter().take(limit).take_while(|c| one(**c) == Some(true)).count();
        for n in (min..=run).rev() {
            b.steps += 1;
            if b.steps > STEP_BUDGET {
                b.exhausted = true;
                return false;
            }
            if k(i + n, b) {
                return true;
            }
        }
        return false;
    }
    // greedy: one more first (not past max, and only if it consumed something), then stop
    if max.map(|mx| count < mx).unwrap_or(true) && m(node, s, i, b, &mut |j, b| j > i && repeat(node, min, max, count + 1, s, j, b, k)) {
        return true;
    }
    count >= min && !b.exhausted && k(i, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_crd_schemas_use() {
        let cron = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$";
        let rows: &[(&str, &str, bool)] = &[
            (cron, "* * * * */5", true),
            (cron, "* * * *", false),
            (cron, "0 3 * * 1", true),
            (r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "my-app", true),
            (r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "My-app", false),
            (r"^v\d+\.\d+\.\d+$", "v1.2.3", true),
            (r"^v\d+\.\d+\.\d+$", "v1.2", false),
            // unanchored: a match anywhere
            ("ab", "xxabyy", true),
            ("a|b", "c", false),
            (r"^https?://", "https://example.com", true),
            (r"^[^@]+@[^@]+$", "me@example.com", true),
            (r"^[^@]+@[^@]+$", "me@@example.com", false),
            (r"^a{2,3}$", "aaaa", false),
            (r"^a{2,}$", "aaaa", true),
            (r"^(?:ab)+$", "ababab", true),
            (r"^\w+$", "has space", false),
            (r"^[A-Z][a-zA-Z]*$", "CronTab", true),
        ];
        for (p, s, want) in rows {
            let r = Regexp::compile(p).unwrap_or_else(|e| panic!("{}: {}", p, e));
            assert_eq!(r.is_match(s), Some(*want), "{} ~ {}", p, s);
        }
        assert!(Regexp::compile("(a").is_err());
        assert!(Regexp::compile("*a").is_err());
        // catastrophic backtracking gives up instead of hanging
        let r = Regexp::compile("^(a+)+$").expect("compiles");
        assert_eq!(r.is_match(&format!("{}b", "a".repeat(40))), None);
        // a long subject under a one-character repeat matches without nesting; a long one under a
        // group repeat, and deep groups, stay within a small stack
        let long = "a".repeat(100_000);
        let deep = format!("{}a{}", "(".repeat(5_000), ")".repeat(5_000));
        let t = std::thread::Builder::new().stack_size(1024 * 1024).spawn(move || {
            let plain = Regexp::compile("^[a-z]*$").expect("compiles").is_match(&long);
            let grouped = Regexp::compile("^(ab|a)*$").expect("compiles").is_match(&long);
            (plain, grouped, Regexp::compile(&deep).is_err())
        });
        assert_eq!(t.expect("thread").join().expect("no overflow"), (Some(true), None, true));
    }
}
