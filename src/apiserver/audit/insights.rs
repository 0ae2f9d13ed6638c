//! CloudWatch Logs Insights over the audit log: the queries an EKS user runs against the
//! `kube-apiserver-audit-*` log streams of the cluster's log group.
//!
//! Real counterpart: Amazon CloudWatch Logs Insights ("Logs Insights query language", the
//! `fields`, `filter`, `sort`, `limit` and `display` commands; "Supported logs and discovered
//! fields"). It is not Kubernetes code: EKS ships each audit event, one JSON line, as a log
//! event of the log group `/aws/eks/CLUSTER/cluster`, and Logs Insights discovers the JSON's
//! fields by flattening it (`objectRef.name`, `user.groups.0`).
//!
//! What kubesim models: the system fields `@timestamp` (the event's `stageTimestamp`, shown as
//! the console shows it, `2026-01-01 00:00:00.581`), `@message` (the JSON line), `@logStream`
//! (`kube-apiserver-audit-<32 hex digits>`, as EKS names its streams) and `@log`
//! (`ACCOUNT:LOG-GROUP`); the first 200 fields of each event, in the order of the JSON, are
//! discovered (Logs Insights' limit for JSON events; a field past it reads as absent);
//! `fields a, b as c`, `display`, `filter` with `=`/`==`, `!=`, `<`, `<=`, `>`, `>=` (numbers
//! compare as numbers), `like /regex/`, `like "substring"`, `=~ /regex/`, `not like`,
//! `in [...]`, `not in`, `ispresent(f)`, `and`, `or`, `not` and parentheses; `sort f asc|desc`
//! with the natural order the documentation describes (numbers after other values, digit runs
//! compared by length then value); `limit N` (1 to 10,000, the default being 10,000 rows);
//! `#` comments. Commands run in the order written. Errors name the symbol and where it is, in
//! the words of the service's `MalformedQueryException` (`unexpected symbol found X at line L
//! and position P`, P counted from 0).
//!
//! What it leaves out: `stats`, `parse`, `dedup`, `unnest` and the other commands, functions
//! other than `ispresent`, arithmetic, time ranges (every kept event is searched).

use super::regex::Regex;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeSet;
use std::fmt;

/// Longest query accepted (the service's limit).
pub const MAX_QUERY: usize = 10_000;
/// Rows a query returns at most (`limit` may ask for fewer).
pub const MAX_ROWS: usize = 10_000;
/// Fields discovered per JSON log event.
pub const MAX_DISCOVERED_FIELDS: usize = 200;

/// Where the events live, for `@logStream` and `@log`.
#[derive(Clone, Debug, PartialEq)]
pub struct LogContext {
    pub log_stream: String,
    pub log_group: String,
    pub account: String,
}

impl LogContext {
    /// EKS's names for a cluster called `kubesim`: log group `/aws/eks/kubesim/cluster`, stream
    /// `kube-apiserver-audit-` and 32 hex digits (derived from the seed, so runs are repeatable),
    /// the documentation's example account.
    pub fn eks(seed: u64) -> LogContext {
        let mut rng = crate::sim::Rng::new(seed ^ 0x6175_6469_745f_6c6f);
        let id = format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64());
        LogContext { log_stream: format!("kube-apiserver-audit-{}", id), log_group: "/aws/eks/kubesim/cluster".into(), account: "123456789012".into() }
    }
}

/// A malformed query: the message and where (line from 1, position in the line from 0).
#[derive(Clone, Debug, PartialEq)]
pub struct QueryError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

// ------------------------------------------------------------------------------------------
// Tokens

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `` `quoted field` ``
    Quoted(String),
    Str(String),
    Num(String),
    Regex(String),
    Punct(&'static str),
    /// A character the language has no use for here (`*`, `;`…): an error where it stands.
    Other,
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
    col: usize,
    /// The token as written (for messages).
    text: String,
}

fn lex(src: &str) -> Result<Vec<Token>, QueryError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 0usize);
    let err = |line, col, m: String| Err(QueryError { line, col, message: m });
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            i += 1;
            line += 1;
            col = 0;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let (l0, c0, start) = (line, col, i);
        let tok = if c.is_alphabetic() || c == '@' || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '.' | '@' | '$')) {
                i += 1;
            }
            Tok::Ident(chars[start..i].iter().collect())
        } else if c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            Tok::Num(chars[start..i].iter().collect())
        } else if c == '"' || c == '\'' || c == '`' || c == '/' {
            // a string, a quoted field name or a regex: up to the closing quote, `\` escapes
            i += 1;
            let mut v = String::new();
            let mut closed = false;
            while i < chars.len() {
                let d = chars[i];
                if d == '\n' {
                    break;
                }
                if d == '\\' && i + 1 < chars.len() && chars[i + 1] != '\n' {
                    if c == '/' {
                        // a regex keeps its escapes, except an escaped slash
                        if chars[i + 1] != '/' {
                            v.push('\\');
                        }
                        v.push(chars[i + 1]);
                    } else {
                        v.push(match chars[i + 1] {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                    i += 2;
                    continue;
                }
                i += 1;
                if d == c {
                    closed = true;
                    break;
                }
                v.push(d);
            }
            if !closed {
                let what = match c {
                    '/' => "regular expression",
                    '`' => "quoted field name",
                    _ => "string",
                };
                return err(l0, c0, format!("unterminated {} starting at line {} and position {}", what, l0, c0));
            }
            match c {
                '/' => Tok::Regex(v),
                '`' => Tok::Quoted(v),
                _ => Tok::Str(v),
            }
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let p: &'static str = match two.as_str() {
                "==" => "==",
                "!=" => "!=",
                "<=" => "<=",
                ">=" => ">=",
                "=~" => "=~",
                "!~" => "!~",
                _ => match c {
                    '|' => "|",
                    ',' => ",",
                    '(' => "(",
                    ')' => ")",
                    '[' => "[",
                    ']' => "]",
                    '=' => "=",
                    '<' => "<",
                    '>' => ">",
                    _ => "",
                },
            };
            if p.is_empty() {
                i += 1;
                Tok::Other
            } else {
                i += p.len();
                Tok::Punct(p)
            }
        };
        col += i - start;
        out.push(Token { tok, line: l0, col: c0, text: chars[start..i].iter().collect() });
    }
    out.push(Token { tok: Tok::Eof, line, col, text: "<EOF>".into() });
    Ok(out)
}

// ------------------------------------------------------------------------------------------
// The query

#[derive(Clone, Debug, PartialEq)]
struct FieldSpec {
    name: String,
    alias: Option<String>,
}

impl FieldSpec {
    fn out(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Operand {
    Field(String),
    Str(String),
    Num(String),
}

#[derive(Clone, Debug)]
enum Pattern {
    Regex(Regex),
    Substring(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
enum Expr {
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Cmp(Operand, CmpOp, Operand),
    Like(Operand, Pattern),
    In(Operand, Vec<Operand>),
    Present(String),
}

#[derive(Clone, Debug)]
enum Command {
    Fields(Vec<FieldSpec>),
    Display(Vec<FieldSpec>),
    Filter(Expr),
    Sort(Vec<(String, bool)>),
    Limit(usize),
}

/// A parsed query.
#[derive(Clone, Debug)]
pub struct Query {
    commands: Vec<Command>,
}

/// Commands of the language kubesim does not implement (named so the message can say so).
const OTHER_COMMANDS: &[&str] = &["stats", "parse", "dedup", "unnest", "expand", "unmask", "pattern", "diff", "anomaly", "lookup", "filterIndex", "SOURCE", "addtotals", "relevantfields"];

struct Parser {
    toks: Vec<Token>,
    i: usize,
}

fn unexpected(t: &Token) -> QueryError {
    QueryError { line: t.line, col: t.col, message: format!("unexpected symbol found {} at line {} and position {}", t.text, t.line, t.col) }
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.i.min(self.toks.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(s) if s.eq_ignore_ascii_case(kw))
    }

    fn is_punct(&self, p: &str) -> bool {
        self.peek().tok == Tok::Punct(match p {
            "|" => "|",
            "," => ",",
            "(" => "(",
            ")" => ")",
            "[" => "[",
            "]" => "]",
            _ => "",
        })
    }

    fn expect_punct(&mut self, p: &str) -> Result<(), QueryError> {
        if self.is_punct(p) {
            self.next();
            Ok(())
        } else {
            Err(unexpected(self.peek()))
        }
    }

    fn query(&mut self) -> Result<Query, QueryError> {
        let mut commands = Vec::new();
        loop {
            commands.push(self.command()?);
            match &self.peek().tok {
                Tok::Eof => break,
                Tok::Punct("|") => {
                    self.next();
                }
                _ => return Err(unexpected(self.peek())),
            }
        }
        Ok(Query { commands })
    }

    fn command(&mut self) -> Result<Command, QueryError> {
        let t = self.next();
        let Tok::Ident(name) = &t.tok else { return Err(unexpected(&t)) };
        match name.as_str() {
            "fields" => Ok(Command::Fields(self.field_list(true)?)),
            "display" => Ok(Command::Display(self.field_list(false)?)),
            "filter" => Ok(Command::Filter(self.or()?)),
            "sort" => {
                let mut keys = Vec::new();
                loop {
                    let f = self.field()?;
                    let desc = if self.is_kw("desc") {
                        self.next();
                        true
                    } else {
                        if self.is_kw("asc") {
                            self.next();
                        }
                        false
                    };
                    keys.push((f, desc));
                    if !self.is_punct(",") {
                        break;
                    }
                    self.next();
                }
                Ok(Command::Sort(keys))
            }
            "limit" => {
                let t = self.next();
                match &t.tok {
                    Tok::Num(n) => match n.parse::<usize>() {
                        Ok(v) if (1..=MAX_ROWS).contains(&v) => Ok(Command::Limit(v)),
                        _ => Err(QueryError { line: t.line, col: t.col, message: format!("limit must be between 1 and {}: {} at line {} and position {}", MAX_ROWS, n, t.line, t.col) }),
                    },
                    _ => Err(unexpected(&t)),
                }
            }
            other if OTHER_COMMANDS.contains(&other) => Err(QueryError {
                line: t.line,
                col: t.col,
                message: format!("kubesim's Logs Insights does not implement `{}` (it has fields, filter, sort, limit and display) at line {} and position {}", other, t.line, t.col),
            }),
            _ => Err(unexpected(&t)),
        }
    }

    fn field(&mut self) -> Result<String, QueryError> {
        let t = self.next();
        match t.tok {
            Tok::Ident(s) | Tok::Quoted(s) => Ok(s),
            _ => Err(unexpected(&t)),
        }
    }

    fn field_list(&mut self, aliases: bool) -> Result<Vec<FieldSpec>, QueryError> {
        let mut out = Vec::new();
        loop {
            let name = self.field()?;
            let alias = if aliases && self.is_kw("as") {
                self.next();
                Some(self.field()?)
            } else {
                None
            };
            out.push(FieldSpec { name, alias });
            if !self.is_punct(",") {
                return Ok(out);
            }
            self.next();
        }
    }

    fn or(&mut self) -> Result<Expr, QueryError> {
        let mut e = self.and()?;
        while self.is_kw("or") {
            self.next();
            e = Expr::Or(Box::new(e), Box::new(self.and()?));
        }
        Ok(e)
    }

    fn and(&mut self) -> Result<Expr, QueryError> {
        let mut e = self.unary()?;
        while self.is_kw("and") {
            self.next();
            e = Expr::And(Box::new(e), Box::new(self.unary()?));
        }
        Ok(e)
    }

    fn unary(&mut self) -> Result<Expr, QueryError> {
        if self.is_kw("not") {
            self.next();
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.is_punct("(") {
            self.next();
            let e = self.or()?;
            self.expect_punct(")")?;
            return Ok(e);
        }
        if self.is_kw("ispresent") && self.toks.get(self.i + 1).is_some_and(|t| t.tok == Tok::Punct("(")) {
            self.next();
            self.next();
            let f = self.field()?;
            self.expect_punct(")")?;
            return Ok(Expr::Present(f));
        }
        self.comparison()
    }

    fn operand(&mut self) -> Result<Operand, QueryError> {
        let t = self.next();
        match t.tok {
            Tok::Ident(s) | Tok::Quoted(s) => Ok(Operand::Field(s)),
            Tok::Str(s) => Ok(Operand::Str(s)),
            Tok::Num(n) => Ok(Operand::Num(n)),
            _ => Err(unexpected(&t)),
        }
    }

    fn pattern(&mut self) -> Result<Pattern, QueryError> {
        let t = self.next();
        match &t.tok {
            Tok::Regex(r) => Regex::new(r).map(Pattern::Regex).map_err(|e| {
                // the column of the offending character: the slash, then the pattern
                let col = t.col + 1 + e.pos;
                QueryError { line: t.line, col, message: format!("invalid regular expression /{}/: {} at line {} and position {}", r, e.message, t.line, col) }
            }),
            Tok::Str(s) => Ok(Pattern::Substring(s.clone())),
            _ => Err(unexpected(&t)),
        }
    }

    fn comparison(&mut self) -> Result<Expr, QueryError> {
        let left = self.operand()?;
        let negate = self.is_kw("not");
        if negate {
            self.next();
            if !self.is_kw("like") && !self.is_kw("in") {
                return Err(unexpected(self.peek()));
            }
        }
        let t = self.peek().clone();
        let e = match &t.tok {
            Tok::Ident(k) if k.eq_ignore_ascii_case("like") => {
                self.next();
                Expr::Like(left, self.pattern()?)
            }
            Tok::Ident(k) if k.eq_ignore_ascii_case("in") => {
                self.next();
                self.expect_punct("[")?;
                let mut items = Vec::new();
                if !self.is_punct("]") {
                    loop {
                        items.push(self.operand()?);
                        if !self.is_punct(",") {
                            break;
                        }
                        self.next();
                    }
                }
                self.expect_punct("]")?;
                Expr::In(left, items)
            }
            Tok::Punct("=~") => {
                self.next();
                Expr::Like(left, self.pattern()?)
            }
            Tok::Punct("!~") => {
                self.next();
                Expr::Not(Box::new(Expr::Like(left, self.pattern()?)))
            }
            Tok::Punct(p) => {
                let op = match *p {
                    "=" | "==" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    "<" => CmpOp::Lt,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    ">=" => CmpOp::Ge,
                    _ => return Err(unexpected(&t)),
                };
                self.next();
                Expr::Cmp(left, op, self.operand()?)
            }
            _ => return Err(unexpected(&t)),
        };
        Ok(if negate { Expr::Not(Box::new(e)) } else { e })
    }
}

/// Parses a query.
pub fn parse(src: &str) -> Result<Query, QueryError> {
    if src.chars().count() > MAX_QUERY {
        return Err(QueryError { line: 1, col: 0, message: format!("the query is longer than {} characters", MAX_QUERY) });
    }
    let toks = lex(src)?;
    if toks.len() == 1 {
        return Err(unexpected(&toks[0]));
    }
    Parser { toks, i: 0 }.query()
}

// ------------------------------------------------------------------------------------------
// Records: one per log event, with the fields the query uses

/// A discovered value: its text, and whether the JSON had a number (or a bool) there.
#[derive(Clone, Debug, PartialEq)]
struct Val {
    text: String,
    num: Option<f64>,
}

struct Record {
    /// Index of the event in the input.
    idx: usize,
    fields: Vec<(String, Val)>,
}

impl Record {
    fn get<'a>(&'a self, name: &str, lines: &'a [String], ctx: &'a LogContext) -> Option<std::borrow::Cow<'a, str>> {
        match name {
            "@message" => lines.get(self.idx).map(|l| std::borrow::Cow::Borrowed(l.as_str())),
            "@logStream" => Some(std::borrow::Cow::Borrowed(ctx.log_stream.as_str())),
            "@log" => Some(std::borrow::Cow::Owned(format!("{}:{}", ctx.account, ctx.log_group))),
            _ => self.fields.iter().rev().find(|(k, _)| k == name).map(|(_, v)| std::borrow::Cow::Borrowed(v.text.as_str())),
        }
    }

    fn num(&self, name: &str) -> Option<f64> {
        self.fields.iter().rev().find(|(k, _)| k == name).and_then(|(_, v)| v.num)
    }
}

/// What the flattening walk keeps: wanted fields among the first 200 leaves, and the timestamps.
struct Flat<'a> {
    want: &'a BTreeSet<String>,
    leaves: usize,
    out: Vec<(String, Val)>,
    stage_ts: Option<String>,
}

struct Walk<'a, 'b> {
    path: &'b mut String,
    st: &'b mut Flat<'a>,
}

impl Walk<'_, '_> {
    fn leaf(self, text: String, num: Option<f64>) {
        if self.path.as_str() == "stageTimestamp" {
            self.st.stage_ts = Some(text.clone());
        }
        if self.st.leaves >= MAX_DISCOVERED_FIELDS {
            return;
        }
        self.st.leaves += 1;
        if self.st.want.contains(self.path.as_str()) {
            self.st.out.push((self.path.clone(), Val { text, num }));
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.leaf(v.to_string(), None);
        Ok(())
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.leaf(v.to_string(), Some(v as f64));
        Ok(())
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.leaf(v.to_string(), Some(v as f64));
        Ok(())
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.leaf(v.to_string(), Some(v));
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.leaf(v.to_string(), None);
        Ok(())
    }
    fn visit_string<E>(self, v: String) -> Result<(), E> {
        self.leaf(v, None);
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Walk { path, st } = self;
        while let Some(k) = map.next_key::<String>()? {
            let len = path.len();
            if len > 0 {
                path.push('.');
            }
            path.push_str(&k);
            map.next_value_seed(Walk { path: &mut *path, st: &mut *st })?;
            path.truncate(len);
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Walk { path, st } = self;
        let mut i = 0usize;
        loop {
            let len = path.len();
            if len > 0 {
                path.push('.');
            }
            path.push_str(&i.to_string());
            let more = seq.next_element_seed(Walk { path: &mut *path, st: &mut *st })?;
            path.truncate(len);
            if more.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }
}

/// `2026-01-01T00:00:00.581000Z` as the console shows `@timestamp`: `2026-01-01 00:00:00.581`.
pub fn console_timestamp(rfc3339: &str) -> String {
    let s = rfc3339.trim_end_matches('Z');
    let (date, time) = s.split_once('T').unwrap_or((s, ""));
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let ms: String = frac.chars().chain(std::iter::repeat('0')).take(3).collect();
    format!("{} {}.{}", date, hms, ms)
}

fn record(idx: usize, line: &str, want: &BTreeSet<String>) -> Record {
    let mut st = Flat { want, leaves: 0, out: Vec::new(), stage_ts: None };
    let mut path = String::new();
    let mut de = serde_json::Deserializer::from_str(line);
    let _ = Walk { path: &mut path, st: &mut st }.deserialize(&mut de);
    let mut fields = st.out;
    if let Some(ts) = st.stage_ts {
        fields.push(("@timestamp".into(), Val { text: console_timestamp(&ts), num: None }));
    }
    Record { idx, fields }
}

// ------------------------------------------------------------------------------------------
// Evaluation

fn as_number(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '-')) {
        return None;
    }
    t.parse().ok()
}

struct Env<'a> {
    lines: &'a [String],
    ctx: &'a LogContext,
}

impl Env<'_> {
    /// The operand's text and number (None: a field the event does not have).
    fn value(&self, r: &Record, o: &Operand) -> Option<(String, Option<f64>)> {
        match o {
            Operand::Field(f) => {
                let text = r.get(f, self.lines, self.ctx)?.into_owned();
                let num = r.num(f).or_else(|| as_number(&text));
                Some((text, num))
            }
            Operand::Str(s) => Some((s.clone(), as_number(s))),
            Operand::Num(n) => Some((n.clone(), n.parse().ok())),
        }
    }

    fn eval(&self, r: &Record, e: &Expr) -> bool {
        match e {
            Expr::Or(a, b) => self.eval(r, a) || self.eval(r, b),
            Expr::And(a, b) => self.eval(r, a) && self.eval(r, b),
            Expr::Not(a) => !self.eval(r, a),
            Expr::Present(f) => r.get(f, self.lines, self.ctx).is_some(),
            Expr::Cmp(a, op, b) => {
                let (Some((ta, na)), Some((tb, nb))) = (self.value(r, a), self.value(r, b)) else { return false };
                let ord = match (na, nb) {
                    (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
                    _ => ta.cmp(&tb),
                };
                use std::cmp::Ordering::*;
                match op {
                    CmpOp::Eq => ord == Equal,
                    CmpOp::Ne => ord != Equal,
                    CmpOp::Lt => ord == Less,
                    CmpOp::Le => ord != Greater,
                    CmpOp::Gt => ord == Greater,
                    CmpOp::Ge => ord != Less,
                }
            }
            Expr::Like(a, p) => {
                let Some((text, _)) = self.value(r, a) else { return false };
                match p {
                    Pattern::Regex(re) => re.is_match(&text),
                    Pattern::Substring(s) => text.contains(s.as_str()),
                }
            }
            Expr::In(a, items) => {
                let Some((ta, na)) = self.value(r, a) else { return false };
                items.iter().any(|it| match self.value(r, it) {
                    Some((tb, nb)) => match (na, nb) {
                        (Some(x), Some(y)) => x == y,
                        _ => ta == tb,
                    },
                    None => false,
                })
            }
        }
    }
}

/// Logs Insights' natural order: values that are all digits come after the others (by value);
/// the others compare run by run, digit runs by length then digits, other runs by code point.
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let is_num = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    match (is_num(a), is_num(b)) {
        (true, true) => {
            let (x, y) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
            return x.len().cmp(&y.len()).then_with(|| x.cmp(y)).then_with(|| a.cmp(b));
        }
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    fn runs(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut prev: Option<bool> = None;
        for (i, c) in s.char_indices() {
            let d = c.is_ascii_digit();
            if prev.is_some_and(|p| p != d) {
                out.push(&s[start..i]);
                start = i;
            }
            prev = Some(d);
        }
        if start < s.len() {
            out.push(&s[start..]);
        }
        out
    }
    let (ra, rb) = (runs(a), runs(b));
    for (x, y) in ra.iter().zip(rb.iter()) {
        let both_digits = x.starts_with(|c: char| c.is_ascii_digit()) && y.starts_with(|c: char| c.is_ascii_digit());
        let o = if both_digits { x.len().cmp(&y.len()).then_with(|| x.cmp(y)) } else { x.cmp(y) };
        if o != Ordering::Equal {
            return o;
        }
    }
    ra.len().cmp(&rb.len())
}

/// A query's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The fields shown, in order.
    pub columns: Vec<String>,
    /// One row per log event; `None` where the event has no such field.
    pub rows: Vec<Vec<Option<String>>>,
    /// Events that passed every filter (before `limit`).
    pub matched: usize,
    /// Events searched, and their bytes.
    pub scanned: usize,
    pub scanned_bytes: usize,
}

impl Query {
    /// Every field name the query reads or shows.
    fn wanted(&self) -> BTreeSet<String> {
        fn expr(e: &Expr, w: &mut BTreeSet<String>) {
            let op = |o: &Operand, w: &mut BTreeSet<String>| {
                if let Operand::Field(f) = o {
                    w.insert(f.clone());
                }
            };
            match e {
                Expr::Or(a, b) | Expr::And(a, b) => {
                    expr(a, w);
                    expr(b, w);
                }
                Expr::Not(a) => expr(a, w),
                Expr::Present(f) => {
                    w.insert(f.clone());
                }
                Expr::Cmp(a, _, b) => {
                    op(a, w);
                    op(b, w);
                }
                Expr::Like(a, _) => op(a, w),
                Expr::In(a, items) => {
                    op(a, w);
                    for i in items {
                        op(i, w);
                    }
                }
            }
        }
        let mut w = BTreeSet::new();
        for c in &self.commands {
            match c {
                Command::Fields(fs) | Command::Display(fs) => {
                    for f in fs {
                        w.insert(f.name.clone());
                    }
                }
                Command::Filter(e) => expr(e, &mut w),
                Command::Sort(keys) => {
                    for (k, _) in keys {
                        w.insert(k.clone());
                    }
                }
                Command::Limit(_) => {}
            }
        }
        w
    }

    /// The columns shown: the last `display`, else the `fields` in order, else `@timestamp` and
    /// `@message`.
    fn columns(&self) -> Vec<String> {
        if let Some(d) = self.commands.iter().rev().find_map(|c| if let Command::Display(d) = c { Some(d) } else { None }) {
            return d.iter().map(|f| f.name.clone()).collect();
        }
        let mut cols: Vec<String> = Vec::new();
        for c in &self.commands {
            if let Command::Fields(fs) = c {
                for f in fs {
                    if !cols.iter().any(|x| x == f.out()) {
                        cols.push(f.out().to_string());
                    }
                }
            }
        }
        if cols.is_empty() {
            cols = vec!["@timestamp".into(), "@message".into()];
        }
        cols
    }

    /// Runs the query over the events (JSON lines, oldest first).
    pub fn run(&self, lines: &[String], ctx: &LogContext) -> Results {
        let want = self.wanted();
        let env = Env { lines, ctx };
        // filters and fields before the first sort or limit run while scanning
        let lead = self.commands.iter().take_while(|c| matches!(c, Command::Filter(_) | Command::Fields(_) | Command::Display(_))).count();
        let mut rows: Vec<Record> = Vec::new();
        'scan: for (i, line) in lines.iter().enumerate() {
            let mut r = record(i, line, &want);
            for c in &self.commands[..lead] {
                if !apply_row(&env, &mut r, c) {
                    continue 'scan;
                }
            }
            rows.push(r);
        }
        let mut matched = rows.len();
        let mut limited = false;
        for c in &self.commands[lead..] {
            match c {
                Command::Sort(keys) => {
                    let mut keyed: Vec<(Vec<Option<String>>, Record)> = rows
                        .into_iter()
                        .map(|r| (keys.iter().map(|(k, _)| r.get(k, lines, ctx).map(|v| v.into_owned())).collect(), r))
                        .collect();
                    keyed.sort_by(|(ka, ra), (kb, rb)| {
                        for (i, (_, desc)) in keys.iter().enumerate() {
                            let o = match (&ka[i], &kb[i]) {
                                (Some(a), Some(b)) => {
                                    let o = natural_cmp(a, b);
                                    if *desc {
                                        o.reverse()
                                    } else {
                                        o
                                    }
                                }
                                // absent values go last either way
                                (Some(_), None) => std::cmp::Ordering::Less,
                                (None, Some(_)) => std::cmp::Ordering::Greater,
                                (None, None) => std::cmp::Ordering::Equal,
                            };
                            if o != std::cmp::Ordering::Equal {
                                return o;
                            }
                        }
                        // ties: log order, newest first when the first key is descending
                        if keys.first().is_some_and(|(_, d)| *d) {
                            rb.idx.cmp(&ra.idx)
                        } else {
                            ra.idx.cmp(&rb.idx)
                        }
                    });
                    rows = keyed.into_iter().map(|(_, r)| r).collect();
                }
                Command::Limit(n) => {
                    rows.truncate(*n);
                    limited = true;
                }
                other => {
                    let before = rows.len();
                    rows.retain_mut(|r| apply_row(&env, r, other));
                    if !limited {
                        matched -= before - rows.len();
                    }
                }
            }
        }
        rows.truncate(MAX_ROWS);
        let columns = self.columns();
        let out = rows.iter().map(|r| columns.iter().map(|c| r.get(c, lines, ctx).map(|v| v.into_owned())).collect()).collect();
        Results { columns, rows: out, matched, scanned: lines.len(), scanned_bytes: lines.iter().map(|l| l.len() + 1).sum() }
    }
}

/// One row through a `filter` (false: dropped) or `fields` (aliases added) command.
fn apply_row(env: &Env, r: &mut Record, c: &Command) -> bool {
    match c {
        Command::Filter(e) => env.eval(r, e),
        Command::Fields(fs) => {
            for f in fs {
                if let Some(alias) = &f.alias {
                    if let Some(text) = r.get(&f.name, env.lines, env.ctx).map(|v| v.into_owned()) {
                        let num = r.num(&f.name);
                        r.fields.push((alias.clone(), Val { text, num }));
                    }
                }
            }
            true
        }
        _ => true,
    }
}

fn human_bytes(n: usize) -> String {
    if n < 1024 {
        format!("{} B", n)
    } else if n < 1024 * 1024 {
        format!("{:.1} KB", n as f64 / 1024.0)
    } else {
        format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
    }
}

impl Results {
    /// The console's summary line: `Showing 2 of 2 records matched`, `105 records (312.4 KB)
    /// scanned`.
    pub fn summary(&self) -> String {
        format!("Showing {} of {} records matched\n{} records ({}) scanned\n", self.rows.len(), self.matched, self.scanned, human_bytes(self.scanned_bytes))
    }

    /// The rows as the console's expanded view lists them: `field: value`, one line each,
    /// fields the event has not left out, a blank line between rows; then the summary.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                s.push('\n');
            }
            for (c, v) in self.columns.iter().zip(row) {
                if let Some(v) = v {
                    s.push_str(c);
                    s.push_str(": ");
                    s.push_str(v);
                    s.push('\n');
                }
            }
        }
        if !self.rows.is_empty() {
            s.push('\n');
        }
        s.push_str(&self.summary());
        s
    }
}

/// Parses and runs a query.
pub fn query(src: &str, lines: &[String], ctx: &LogContext) -> Result<Results, QueryError> {
    Ok(parse(src)?.run(lines, ctx))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> Vec<String> {
        [
            r#"{"kind":"Event","level":"RequestResponse","verb":"create","user":{"username":"kubernetes-admin","groups":["system:authenticated"]},"objectRef":{"resource":"deployments","namespace":"default","name":"nginx","apiGroup":"apps"},"responseStatus":{"metadata":{},"code":201},"requestObject":{"kind":"Deployment"},"requestReceivedTimestamp":"2026-01-01T00:00:00.580000Z","stageTimestamp":"2026-01-01T00:00:00.581000Z","annotations":{"authorization.k8s.io/decision":"allow"}}"#,
            r#"{"kind":"Event","level":"RequestResponse","verb":"create","user":{"username":"system:serviceaccount:kube-system:replicaset-controller"},"objectRef":{"resource":"pods","namespace":"default"},"responseStatus":{"metadata":{},"code":201},"requestObject":{"kind":"Pod"},"responseObject":{"metadata":{"name":"nginx-85f7d4dd78-k2hfb"}},"stageTimestamp":"2026-01-01T00:00:00.603000Z"}"#,
            r#"{"kind":"Event","level":"RequestResponse","verb":"create","user":{"username":"system:kube-scheduler"},"objectRef":{"resource":"pods","namespace":"default","name":"nginx-85f7d4dd78-k2hfb","subresource":"binding"},"responseStatus":{"metadata":{},"code":201},"requestObject":{"kind":"Binding"},"stageTimestamp":"2026-01-01T00:00:00.620000Z"}"#,
            r#"{"kind":"Event","level":"Request","verb":"get","user":{"username":"kubernetes-admin"},"objectRef":{"resource":"pods","namespace":"default","name":"x"},"responseStatus":{"metadata":{},"status":"Failure","code":404},"stageTimestamp":"2026-01-01T00:00:01.000000Z"}"#,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn ctx() -> LogContext {
        LogContext::eks(1)
    }

    /// (case, query, the first column of each row)
    const QUERY_TABLE: &[(&str, &str, &[&str])] = &[
        ("fields and == (seed 000's first query)", "fields @timestamp, verb\n| filter @logStream like /^kube-apiserver-audit/\n| filter objectRef.resource == \"deployments\"\n| filter verb == \"create\"\n| sort @timestamp desc", &["2026-01-01 00:00:00.581"]),
        ("= is equality too", "fields objectRef.name | filter objectRef.resource = 'deployments'", &["nginx"]),
        ("!= keeps events without the field out", "fields verb | filter objectRef.name != \"nginx\"", &["create", "get"]),
        ("sort desc", "fields @timestamp | sort @timestamp desc", &["2026-01-01 00:00:01.000", "2026-01-01 00:00:00.620", "2026-01-01 00:00:00.603", "2026-01-01 00:00:00.581"]),
        ("sort asc is the default", "fields user.username | sort user.username", &["kubernetes-admin", "kubernetes-admin", "system:kube-scheduler", "system:serviceaccount:kube-system:replicaset-controller"]),
        ("limit after sort", "fields @timestamp | sort @timestamp desc | limit 1", &["2026-01-01 00:00:01.000"]),
        ("limit before filter", "fields verb | limit 2 | filter verb = \"get\"", &[]),
        ("like a substring", "fields requestObject.kind | filter user.username like \"kube-system\"", &["Pod"]),
        ("like a regex with alternation", "fields requestObject.kind | filter requestObject.kind like /^(Pod|Binding)$/", &["Pod", "Binding"]),
        ("=~ and not like", "fields verb | filter verb =~ /e$/ and objectRef.resource not like /deploy/", &["create", "create"]),
        ("in and not in", "fields responseStatus.code | filter verb in [\"get\", \"patch\"] or objectRef.subresource not in [\"binding\"] and objectRef.resource = \"deployments\"", &["201", "404"]),
        ("numbers compare as numbers", "fields responseStatus.code | filter responseStatus.code >= 300", &["404"]),
        ("a number as a string", "fields verb | filter responseStatus.code = \"404\"", &["get"]),
        ("not, and, or, parentheses", "fields verb | filter not (verb = \"create\" or level = \"Request\")", &[]),
        ("ispresent", "fields responseObject.metadata.name | filter ispresent(responseObject.metadata.name)", &["nginx-85f7d4dd78-k2hfb"]),
        ("arrays are indexed", "fields user.groups.0 | filter ispresent(user.groups.0)", &["system:authenticated"]),
        ("backquoted field names", "fields `annotations.authorization.k8s.io/decision` | filter ispresent(`annotations.authorization.k8s.io/decision`)", &["allow"]),
        ("aliases", "fields objectRef.name as name | filter name = \"nginx\"", &["nginx"]),
        ("display picks the columns", "fields verb, level | display level | filter verb = \"get\"", &["Request"]),
        ("comments", "# who created the Deployment?\nfields user.username # the user\n| filter objectRef.resource = \"deployments\"", &["kubernetes-admin"]),
        ("no fields: @timestamp and @message", "filter verb = \"get\"", &["2026-01-01 00:00:01.000"]),
    ];

    #[test]
    fn query_table() {
        let lines = log();
        for (case, q, want) in QUERY_TABLE {
            let r = query(q, &lines, &ctx()).unwrap_or_else(|e| panic!("{}: {}", case, e));
            let got: Vec<String> = r.rows.iter().map(|row| row[0].clone().unwrap_or_default()).collect();
            assert_eq!(got, want.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "{}", case);
        }
    }

    /// (case, query, error)
    const ERROR_TABLE: &[(&str, &str, &str)] = &[
        ("empty", "", "unexpected symbol found <EOF> at line 1 and position 0"),
        ("unknown command", "fields verb | filtr verb = \"x\"", "unexpected symbol found filtr at line 1 and position 14"),
        ("a command kubesim lacks", "fields verb\n| stats count(*) by verb", "kubesim's Logs Insights does not implement `stats` (it has fields, filter, sort, limit and display) at line 2 and position 2"),
        ("a dangling operator", "filter verb ==", "unexpected symbol found <EOF> at line 1 and position 14"),
        ("a missing pipe", "fields verb filter x = 1", "unexpected symbol found filter at line 1 and position 12"),
        ("a bad regex", "filter verb like /cre(ate/", "invalid regular expression /cre(ate/: missing closing ) at line 1 and position 21"),
        ("an unterminated regex", "filter @logStream like /^kube", "unterminated regular expression starting at line 1 and position 23"),
        ("an unterminated string", "filter verb = \"create", "unterminated string starting at line 1 and position 14"),
        ("a stray character", "fields verb | filter verb = ;", "unexpected symbol found ; at line 1 and position 28"),
        ("limit out of range", "fields verb | limit 0", "limit must be between 1 and 10000: 0 at line 1 and position 20"),
        ("limit without a number", "fields verb | limit many", "unexpected symbol found many at line 1 and position 20"),
        ("a trailing pipe", "fields verb |", "unexpected symbol found <EOF> at line 1 and position 13"),
        ("an unclosed list", "filter verb in [\"get\"", "unexpected symbol found <EOF> at line 1 and position 21"),
        ("not without like or in", "filter verb not = \"get\"", "unexpected symbol found = at line 1 and position 16"),
        ("an unclosed parenthesis", "filter (verb = \"get\"", "unexpected symbol found <EOF> at line 1 and position 20"),
    ];

    #[test]
    fn error_table() {
        for (case, q, want) in ERROR_TABLE {
            let e = parse(q).expect_err(case);
            assert_eq!(e.message, *want, "{}", case);
        }
        let e = parse(&"x".repeat(MAX_QUERY + 1)).expect_err("long");
        assert!(e.message.contains("longer than"));
    }

    #[test]
    fn results_as_text_and_system_fields() {
        let lines = log();
        let r = query("fields @timestamp, objectRef.name, @logStream | filter objectRef.resource = \"pods\" and verb = \"create\" | sort @timestamp desc", &lines, &ctx()).expect("query");
        let text = r.to_text();
        let stream = ctx().log_stream;
        assert!(stream.starts_with("kube-apiserver-audit-") && stream.len() == "kube-apiserver-audit-".len() + 32, "{}", stream);
        assert_eq!(
            text,
            format!("@timestamp: 2026-01-01 00:00:00.620\nobjectRef.name: nginx-85f7d4dd78-k2hfb\n@logStream: {s}\n\n@timestamp: 2026-01-01 00:00:00.603\n@logStream: {s}\n\nShowing 2 of 2 records matched\n4 records ({b}) scanned\n", s = stream, b = human_bytes(r.scanned_bytes))
        );
        let r = query("fields @message, @log | limit 1", &lines, &ctx()).expect("query");
        assert_eq!(r.rows[0][0].as_deref(), Some(lines[0].as_str()));
        assert_eq!(r.rows[0][1].as_deref(), Some("123456789012:/aws/eks/kubesim/cluster"));
        assert_eq!(console_timestamp("2026-01-01T00:00:00.58Z"), "2026-01-01 00:00:00.580");
    }

    #[test]
    fn only_the_first_200_fields_are_discovered() {
        let mut ev = serde_json::Map::new();
        for i in 0..250 {
            ev.insert(format!("f{:03}", i), serde_json::json!(i));
        }
        ev.insert("zz".into(), serde_json::json!("late"));
        ev.insert("stageTimestamp".into(), serde_json::json!("2026-01-01T00:00:00.000000Z"));
        let lines = vec![serde_json::Value::Object(ev).to_string()];
        let r = query("fields f199, f200, zz, @timestamp", &lines, &ctx()).expect("query");
        assert_eq!(r.rows[0], vec![Some("199".to_string()), None, None, Some("2026-01-01 00:00:00.000".to_string())]);
    }

    /// Seed 000's queries, asked of kubesim's own audit log after the post's Deployment: the
    /// rows the post shows (with kubesim's names and versions).
    #[test]
    fn seed000_queries_return_the_posts_rows() {
        let mut c = crate::sandbox::default_cluster(1);
        // the post asks after its own Deployment: the lines from bootstrap (CoreDNS's) are not in its window
        let before = c.view().audit().len();
        let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: nginx\n  template:\n    metadata:\n      labels:\n        app: nginx\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.27\n";
        let args: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
        let out = crate::kubectl::run(&mut c, &args, Some(manifest), &|_| None);
        assert_eq!(out.stdout, "deployment.apps/nginx created\n");
        assert!(c.run_until_settled().settled);
        let ctx = LogContext::eks(c.seed());
        let q = |resource: &str, extra: &str| {
            let text = format!(
                "fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent\n| filter @logStream like /^kube-apiserver-audit/\n| filter objectRef.resource == \"{}\"\n| filter verb == \"create\"\n{}| sort @timestamp desc",
                resource, extra
            );
            let r = query(&text, &c.view().audit()[before..], &ctx).expect("the post's query parses");
            assert_eq!(r.columns, ["@timestamp", "requestURI", "verb", "requestObject.kind", "objectRef.name", "user.username", "userAgent"]);
            // (requestObject.kind, objectRef.name, user.username, userAgent's program)
            r.rows
                .iter()
                .map(|row| {
                    assert_eq!(row[2].as_deref(), Some("create"));
                    let ua = row[6].clone().unwrap_or_default();
                    (row[3].clone().unwrap_or_default(), row[4].clone().unwrap_or_default(), row[5].clone().unwrap_or_default(), ua.split('/').next().unwrap_or("").to_string())
                })
                .collect::<Vec<_>>()
        };
        let s = |a: &str, b: &str, u: &str, p: &str| (a.to_string(), b.to_string(), u.to_string(), p.to_string());
        assert_eq!(q("deployments", ""), vec![s("Deployment", "nginx", "kubernetes-admin", "kubectl")]);
        let rs = q("replicasets", "");
        assert_eq!(rs.len(), 1);
        assert_eq!((rs[0].0.as_str(), rs[0].2.as_str(), rs[0].3.as_str()), ("ReplicaSet", "system:serviceaccount:kube-system:deployment-controller", "kube-controller-manager"));
        let rs_name = rs[0].1.clone();
        assert!(rs_name.starts_with("nginx-"), "{}", rs_name);
        // the Pod has a generated name: objectRef has none (the post reads responseObject.metadata.name)
        let pods = q("pods", "");
        assert_eq!(pods.len(), 2, "{:?}", pods);
        assert_eq!((pods[0].0.as_str(), pods[0].2.as_str(), pods[0].3.as_str()), ("Binding", "system:kube-scheduler", "kube-scheduler"));
        assert_eq!(pods[1], s("Pod", "", "system:serviceaccount:kube-system:replicaset-controller", "kube-controller-manager"));
        let pod = pods[0].1.clone();
        assert!(pod.starts_with(&format!("{}-", rs_name)), "{} of {}", pod, rs_name);
        let r = query("fields responseObject.metadata.name | filter objectRef.resource == \"pods\" and verb == \"create\" and ispresent(responseObject.metadata.name)", &c.view().audit()[before..], &ctx).expect("query");
        assert_eq!(r.rows, vec![vec![Some(pod.clone())]]);
        assert_eq!(q("pods", "| filter user.username == \"system:kube-scheduler\"\n"), vec![s("Binding", &pod, "system:kube-scheduler", "kube-scheduler")]);
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["0", "a12345hfh", "01", "A9876fghj", "@_", "2345_", "@", "111A", "5A", "0#", "*%04", "#", "!:", "A", "1", "3", "2"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, vec!["!:", "#", "*%04", "0#", "5A", "111A", "2345_", "@", "@_", "A", "A9876fghj", "a12345hfh", "0", "01", "1", "2", "3"]);
    }
}
