//! The regular expressions of Logs Insights' `like /…/` and `=~`: a small RE2-style matcher.
//!
//! Real counterpart: CloudWatch Logs Insights' "Supported regular expressions (regex) syntax"
//! (a RE2-like dialect, no back-references or look-around). kubesim implements the subset a
//! learner's audit query needs: literals and escapes (`\.`, `\/`, `\d`, `\w`, `\s` and their
//! negations, `\t`, `\n`), `.`, anchors `^` and `$`, character classes (`[a-z0-9_-]`, `[^…]`),
//! groups (`(…)`, `(?:…)`), alternation `|`, the quantifiers `*`, `+`, `?`, `{n}`, `{n,}`,
//! `{n,m}` (a trailing `?` for laziness is accepted: only whether it matches counts), and a
//! leading `(?i)` for case-insensitive matching.
//!
//! Matching is a Pike VM over the compiled program (Thompson's simulation): time is linear in
//! the text for a given pattern, so no pattern can make a query hang. Patterns are bounded
//! ([`MAX_PATTERN`] characters, [`MAX_PROGRAM`] instructions after `{n,m}` expands).

/// Longest pattern accepted.
pub const MAX_PATTERN: usize = 1_000;
/// Largest compiled program.
pub const MAX_PROGRAM: usize = 10_000;

/// Why a pattern does not compile, and at which character (0-based, in the pattern).
#[derive(Clone, Debug, PartialEq)]
pub struct RegexError {
    pub pos: usize,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
enum ClassItem {
    Char(char),
    Range(char, char),
    Digit(bool),
    Word(bool),
    Space(bool),
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Empty,
    Char(char),
    Any,
    Class(Vec<ClassItem>, bool),
    Start,
    End,
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

#[derive(Clone, Debug, PartialEq)]
enum Inst {
    Char(char),
    Any,
    Class(Vec<ClassItem>, bool),
    Start,
    End,
    Split(usize, usize),
    Jmp(usize),
    Match,
}

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Regex {
    prog: Vec<Inst>,
    icase: bool,
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

impl Parser {
    fn err<T>(&self, pos: usize, m: &str) -> Result<T, RegexError> {
        Err(RegexError { pos, message: m.to_string() })
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn alt(&mut self, depth: usize) -> Result<Node, RegexError> {
        if depth > 100 {
            return self.err(self.i, "groups nested too deeply");
        }
        let mut alts = vec![self.concat(depth)?];
        while self.peek() == Some('|') {
            self.i += 1;
            alts.push(self.concat(depth)?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap_or(Node::Empty) } else { Node::Alt(alts) })
    }

    fn concat(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let start = self.i;
            let atom = self.atom(depth)?;
            let atom = self.quantified(atom, start)?;
            items.push(atom);
        }
        Ok(if items.len() == 1 { items.pop().unwrap_or(Node::Empty) } else if items.is_empty() { Node::Empty } else { Node::Concat(items) })
    }

    fn quantified(&mut self, mut atom: Node, start: usize) -> Result<Node, RegexError> {
        let mut repeated = false;
        loop {
            let op = self.i;
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => match self.braces()? {
                    Some(b) => b,
                    None => return Ok(atom),
                },
                _ => return Ok(atom),
            };
            if self.i == op {
                self.i += 1;
            }
            if matches!(atom, Node::Start | Node::End | Node::Empty) {
                return self.err(start, "missing argument to repetition operator");
            }
            if repeated {
                return self.err(op, "invalid nested repetition operator");
            }
            repeated = true;
            // lazy forms match the same texts
            if self.peek() == Some('?') {
                self.i += 1;
            }
            atom = Node::Repeat(Box::new(atom), min, max);
            if !matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
                return Ok(atom);
            }
        }
    }

    /// `{n}`, `{n,}`, `{n,m}`; a `{` that does not start one is a literal (as in RE2).
    fn braces(&mut self) -> Result<Option<(u32, Option<u32>)>, RegexError> {
        let start = self.i;
        let mut j = self.i + 1;
        let num = |j: &mut usize, chars: &[char]| -> Option<u32> {
            let s = *j;
            while *j < chars.len() && chars[*j].is_ascii_digit() {
                *j += 1;
            }
            chars[s..*j].iter().collect::<String>().parse().ok()
        };
        let Some(min) = num(&mut j, &self.chars) else { return Ok(None) };
        let max = if self.chars.get(j) == Some(&',') {
            j += 1;
            if self.chars.get(j) == Some(&'}') {
                None
            } else {
                match num(&mut j, &self.chars) {
                    Some(m) => Some(m),
                    None => return Ok(None),
                }
            }
        } else {
            Some(min)
        };
        if self.chars.get(j) != Some(&'}') {
            return Ok(None);
        }
        if min > 1000 || max.is_some_and(|m| m > 1000 || m < min) {
            return self.err(start, "invalid repeat count");
        }
        self.i = j + 1;
        Ok(Some((min, max)))
    }

    fn escape(&mut self, in_class: bool) -> Result<ClassItem, RegexError> {
        let pos = self.i;
        self.i += 1;
        let Some(c) = self.peek() else { return self.err(pos, "trailing backslash at end of expression") };
        self.i += 1;
        Ok(match c {
            'd' => ClassItem::Digit(true),
            'D' => ClassItem::Digit(false),
            'w' => ClassItem::Word(true),
            'W' => ClassItem::Word(false),
            's' => ClassItem::Space(true),
            'S' => ClassItem::Space(false),
            't' => ClassItem::Char('\t'),
            'n' => ClassItem::Char('\n'),
            'r' => ClassItem::Char('\r'),
            c if c.is_ascii_punctuation() || (in_class && c == ' ') => ClassItem::Char(c),
            _ => return self.err(pos, &format!("invalid escape sequence \\{}", c)),
        })
    }

    fn atom(&mut self, depth: usize) -> Result<Node, RegexError> {
        let pos = self.i;
        let Some(c) = self.peek() else { return Ok(Node::Empty) };
        match c {
            '(' => {
                self.i += 1;
                if self.chars[self.i..].starts_with(&['?', ':']) {
                    self.i += 2;
                } else if self.peek() == Some('?') {
                    return self.err(pos, "unsupported group: only (…) and (?:…) are (and a leading (?i))");
                }
                let inner = self.alt(depth + 1)?;
                if self.peek() != Some(')') {
                    return self.err(pos, "missing closing )");
                }
                self.i += 1;
                Ok(inner)
            }
            ')' => self.err(pos, "unexpected )"),
            '*' | '+' | '?' => self.err(pos, "missing argument to repetition operator"),
            '.' => {
                self.i += 1;
                Ok(Node::Any)
            }
            '^' => {
                self.i += 1;
                Ok(Node::Start)
            }
            '$' => {
                self.i += 1;
                Ok(Node::End)
            }
            '[' => self.class(),
            '\\' => Ok(match self.escape(false)? {
                ClassItem::Char(c) => Node::Char(c),
                other => Node::Class(vec![other], false),
            }),
            c => {
                self.i += 1;
                Ok(Node::Char(c))
            }
        }
    }

    fn class(&mut self) -> Result<Node, RegexError> {
        let pos = self.i;
        self.i += 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else { return self.err(pos, "missing closing ]") };
            if c == ']' && !first {
                self.i += 1;
                break;
            }
            first = false;
            let lo = if c == '\\' {
                self.escape(true)?
            } else {
                self.i += 1;
                ClassItem::Char(c)
            };
            // a range a-z (a '-' before ']' is a literal)
            if let ClassItem::Char(lo_c) = lo {
                if self.peek() == Some('-') && self.chars.get(self.i + 1).is_some_and(|c| *c != ']') {
                    self.i += 1;
                    let hi = if self.peek() == Some('\\') {
                        self.escape(true)?
                    } else {
                        let h = self.peek().unwrap_or(']');
                        self.i += 1;
                        ClassItem::Char(h)
                    };
                    match hi {
                        ClassItem::Char(hi_c) if hi_c >= lo_c => items.push(ClassItem::Range(lo_c, hi_c)),
                        _ => return self.err(pos, "invalid character class range"),
                    }
                    continue;
                }
            }
            items.push(lo);
        }
        Ok(Node::Class(items, negated))
    }
}

fn class_matches(items: &[ClassItem], negated: bool, c: char, icase: bool) -> bool {
    let test = |c: char| {
        items.iter().any(|it| match *it {
            ClassItem::Char(x) => x == c,
            ClassItem::Range(a, b) => (a..=b).contains(&c),
            ClassItem::Digit(p) => c.is_ascii_digit() == p,
            ClassItem::Word(p) => (c.is_ascii_alphanumeric() || c == '_') == p,
            ClassItem::Space(p) => matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') == p,
        })
    };
    let hit = test(c) || (icase && (test(lower(c)) || test(upper(c))));
    hit != negated
}

fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

fn upper(c: char) -> char {
    c.to_uppercase().next().unwrap_or(c)
}

struct Compiler {
    prog: Vec<Inst>,
}

impl Compiler {
    fn emit(&mut self, i: Inst) -> Result<usize, RegexError> {
        if self.prog.len() >= MAX_PROGRAM {
            return Err(RegexError { pos: 0, message: "expression too large".into() });
        }
        self.prog.push(i);
        Ok(self.prog.len() - 1)
    }

    fn node(&mut self, n: &Node) -> Result<(), RegexError> {
        match n {
            Node::Empty => {}
            Node::Char(c) => {
                self.emit(Inst::Char(*c))?;
            }
            Node::Any => {
                self.emit(Inst::Any)?;
            }
            Node::Class(items, neg) => {
                self.emit(Inst::Class(items.clone(), *neg))?;
            }
            Node::Start => {
                self.emit(Inst::Start)?;
            }
            Node::End => {
                self.emit(Inst::End)?;
            }
            Node::Concat(items) => {
                for it in items {
                    self.node(it)?;
                }
            }
            Node::Alt(alts) => {
                let mut jumps = Vec::new();
                for (k, a) in alts.iter().enumerate() {
                    if k + 1 < alts.len() {
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.node(a)?;
                        jumps.push(self.emit(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, next);
                    } else {
                        self.node(a)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.prog[j] = Inst::Jmp(end);
                }
            }
            Node::Repeat(inner, min, max) => {
                for _ in 0..*min {
                    self.node(inner)?;
                }
                match max {
                    None => {
                        // x*: L: split(body, out); body; jmp L
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.node(inner)?;
                        self.emit(Inst::Jmp(split))?;
                        let out = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, out);
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.emit(Inst::Split(0, 0))?);
                            self.node(inner)?;
                        }
                        let out = self.prog.len();
                        for s in splits {
                            self.prog[s] = Inst::Split(s + 1, out);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Regex {
    /// Compiles a pattern (the text between the slashes).
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        if pattern.chars().count() > MAX_PATTERN {
            return Err(RegexError { pos: 0, message: format!("expression longer than {} characters", MAX_PATTERN) });
        }
        let (icase, body, offset) = match pattern.strip_prefix("(?i)") {
            Some(rest) => (true, rest, 4),
            None => (false, pattern, 0),
        };
        let mut p = Parser { chars: body.chars().collect(), i: 0 };
        let ast = p.alt(0).map_err(|e| RegexError { pos: e.pos + offset, ..e })?;
        if p.i < p.chars.len() {
            return Err(RegexError { pos: p.i + offset, message: "unexpected )".into() });
        }
        let mut c = Compiler { prog: Vec::new() };
        c.node(&ast)?;
        c.emit(Inst::Match)?;
        Ok(Regex { prog: c.prog, icase })
    }

    /// Whether the pattern matches anywhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let n = self.prog.len();
        let mut clist: Vec<usize> = Vec::with_capacity(n);
        let mut nlist: Vec<usize> = Vec::with_capacity(n);
        let mut on = vec![usize::MAX; n];
        let mut gen = 0usize;
        for pos in 0..=chars.len() {
            // a new thread starts at every position (the search is unanchored)
            if self.add(&mut clist, &mut on, gen, 0, pos, chars.len()) {
                return true;
            }
            gen += 1;
            let Some(&c) = chars.get(pos) else { break };
            nlist.clear();
            for &pc in &clist {
                let ok = match &self.prog[pc] {
                    Inst::Char(x) => *x == c || (self.icase && lower(*x) == lower(c)),
                    Inst::Any => c != '\n',
                    Inst::Class(items, neg) => class_matches(items, *neg, c, self.icase),
                    _ => false,
                };
                if ok && self.add(&mut nlist, &mut on, gen, pc + 1, pos + 1, chars.len()) {
                    return true;
                }
            }
            std::mem::swap(&mut clist, &mut nlist);
        }
        false
    }

    /// Adds the thread at `pc` and everything reachable from it without consuming a character;
    /// true when that reaches `Match`.
    fn add(&self, list: &mut Vec<usize>, on: &mut [usize], gen: usize, pc: usize, pos: usize, len: usize) -> bool {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if pc >= self.prog.len() || on[pc] == gen {
                continue;
            }
            on[pc] = gen;
            match &self.prog[pc] {
                Inst::Match => return true,
                Inst::Jmp(t) => stack.push(*t),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::Start => {
                    if pos == 0 {
                        stack.push(pc + 1);
                    }
                }
                Inst::End => {
                    if pos == len {
                        stack.push(pc + 1);
                    }
                }
                _ => list.push(pc),
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (pattern, text, matches)
    const MATCH_TABLE: &[(&str, &str, bool)] = &[
        ("^kube-apiserver-audit", "kube-apiserver-audit-0a1b", true),
        ("^kube-apiserver-audit", "x-kube-apiserver-audit", false),
        ("audit", "kube-apiserver-audit-0a1b", true),
        ("^nginx-[a-z0-9]+$", "nginx-85f7d4dd78", true),
        ("^nginx-[a-z0-9]+$", "nginx-85f7d4dd78-k2hfb", false),
        ("^nginx(-[a-z0-9]+){2}$", "nginx-85f7d4dd78-k2hfb", true),
        ("deploy(ment)?s?", "deploys", true),
        ("^(create|update|patch)$", "patch", true),
        ("^(create|update|patch)$", "delete", false),
        ("system:.*-controller$", "system:serviceaccount:kube-system:replicaset-controller", true),
        ("\\d{3}", "code 201", true),
        ("^\\d{3}$", "2010", false),
        ("\\/binding$", "/api/v1/namespaces/default/pods/p/binding", true),
        ("[^a-z]", "abc", false),
        ("[^a-z]", "abc1", true),
        ("a.c", "abc", true),
        ("a.c", "a\nc", false),
        ("(?i)KUBE", "kube-scheduler", true),
        ("KUBE", "kube-scheduler", false),
        ("[A-Z]", "Binding", true),
        ("x*", "", true),
        ("^$", "", true),
        ("a{2,3}", "caab", true),
        ("a{2,3}", "cab", false),
        ("\\s\\S", "a b", true),
        ("\\w+@", "user@x", true),
        ("[-.]", "a.b", true),
        ("{", "a{b", true),
        ("(a|b)*c", "ababababababababababababc", true),
        ("(a*)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
    ];

    #[test]
    fn match_table() {
        for (p, text, want) in MATCH_TABLE {
            let re = Regex::new(p).unwrap_or_else(|e| panic!("{}: {:?}", p, e));
            assert_eq!(re.is_match(text), *want, "/{}/ on {:?}", p, text);
        }
    }

    /// (pattern, position, message)
    const ERROR_TABLE: &[(&str, usize, &str)] = &[
        ("(abc", 0, "missing closing )"),
        ("abc)", 3, "unexpected )"),
        ("[a-", 0, "missing closing ]"),
        ("*a", 0, "missing argument to repetition operator"),
        ("a**", 2, "invalid nested repetition operator"),
        ("a\\", 1, "trailing backslash at end of expression"),
        ("\\q", 0, "invalid escape sequence \\q"),
        ("[z-a]", 0, "invalid character class range"),
        ("a{5,2}", 1, "invalid repeat count"),
        ("(?=x)", 0, "unsupported group: only (…) and (?:…) are (and a leading (?i))"),
        ("(?i)(x", 4, "missing closing )"),
    ];

    #[test]
    fn error_table() {
        for (p, pos, msg) in ERROR_TABLE {
            let e = Regex::new(p).expect_err(p);
            assert_eq!((e.pos, e.message.as_str()), (*pos, *msg), "{}", p);
        }
        assert!(Regex::new(&"a{1000}".repeat(20)).is_err(), "program bound");
    }
}
