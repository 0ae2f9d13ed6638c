//! `x-kubernetes-validations`: CEL rules on a custom resource's schema, evaluated with `self`
//! bound to the value at the rule's place in the object.
//!
//! Real counterparts: apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`
//! (`validateExpressions`: a failed rule is `field.Invalid(path, <schema type>, message)`, the
//! message the rule's `message`, else `failed rule: <rule>`; `reason` and `fieldPath` move it),
//! and the CEL language (cel-go) with the Kubernetes libraries.
//!
//! The CEL subset modelled: literals (integers, doubles, strings, `true`/`false`/`null`, lists),
//! `self` and field selection (`self.spec.replicas`), indexing (`self.items[0]`, `m['k']`),
//! `has(self.x)`, `size(x)` and `x.size()`, `+ - * / %` on numbers (and `+` on strings and
//! lists), comparisons, `&&`, `||`, `!`, the conditional `c ? a : b`, `x in list`, and the string
//! functions `startsWith`, `endsWith`, `contains`, `lowerAscii`, `upperAscii`, `matches`.
//! `oldSelf` (transition rules), macros (`all`, `exists`, `map`, `filter`), `messageExpression`
//! and cost limits are not modelled: a rule outside the subset is refused when the CRD is
//! validated (`compilation failed`), so a stored CRD's rules always evaluate.

use crate::api::field::FieldError;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Num(f64),
    Str(String),
    Ident(String),
    Op(&'static str),
}

fn lex(src: &str) -> Result<Vec<Tok>, String> {
    let c: Vec<char> = src.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    const OPS: [&str; 22] = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", ".", ",", "?", ":"];
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        if ch.is_ascii_digit() {
            let s = i;
            while i < c.len() && (c[i].is_ascii_digit() || c[i] == '.') {
                i += 1;
            }
            let t: String = c[s..i].iter().collect();
            out.push(if t.contains('.') { Tok::Num(t.parse().map_err(|_| format!("Syntax error: invalid number {}", t))?) } else { Tok::Int(t.parse().map_err(|_| format!("Syntax error: invalid number {}", t))?) });
            continue;
        }
        if ch.is_alphabetic() || ch == '_' {
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(c[s..i].iter().collect()));
            continue;
        }
        if ch == '"' || ch == '\'' {
            let q = ch;
            i += 1;
            let mut s = String::new();
            while i < c.len() && c[i] != q {
                if c[i] == '\\' && i + 1 < c.len() {
                    i += 1;
                }
                s.push(c[i]);
                i += 1;
            }
            if i >= c.len() {
                return Err("Syntax error: unterminated string".into());
            }
            i += 1;
            out.push(Tok::Str(s));
            continue;
        }
        let two: String = c[i..(i + 2).min(c.len())].iter().collect();
        if let Some(op) = OPS.iter().find(|o| o.len() == 2 && **o == two) {
            out.push(Tok::Op(op));
            i += 2;
            continue;
        }
        match OPS.iter().find(|o| o.len() == 1 && o.starts_with(ch)) {
            Some(op) => {
                out.push(Tok::Op(op));
                i += 1;
            }
            None => return Err(format!("Syntax error: token recognition error at: '{}'", ch)),
        }
    }
    Ok(out)
}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
enum Expr {
    Lit(Value),
    List(Vec<Expr>),
    Ident(String),
    Select(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    Call(Option<Box<Expr>>, String, Vec<Expr>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

struct P {
    t: Vec<Tok>,
    i: usize,
    /// Nested expressions and unary operators open at the position (cel-go's parser stops at
    /// its maximum recursion depth).
    depth: usize,
}

/// The parser's nesting bound, with cel-go's message. cel-go allows 250 levels; kubesim's
/// recursive-descent parser stops at 32, which no validation rule comes near, so it stays within
/// the page's stack.
const MAX_RECURSION_DEPTH: usize = 32;

impl P {
    fn peek_op(&self, op: &str) -> bool {
        matches!(self.t.get(self.i), Some(Tok::Op(o)) if *o == op)
    }
    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op(op) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(format!("Syntax error: missing '{}'", op))
        }
    }
    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_RECURSION_DEPTH {
            return Err("expression recursion limit exceeded".into());
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.enter()?;
        let e = self.conditional();
        self.depth -= 1;
        e
    }

    fn conditional(&mut self) -> Result<Expr, String> {
        let c = self.or()?;
        if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }
    fn or(&mut self) -> Result<Expr, String> {
        let mut l = self.and()?;
        while self.eat("||") {
            l = Expr::Binary("||", Box::new(l), Box::new(self.and()?));
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<Expr, String> {
        let mut l = self.rel()?;
        while self.eat("&&") {
            l = Expr::Binary("&&", Box::new(l), Box::new(self.rel()?));
        }
        Ok(l)
    }
    fn rel(&mut self) -> Result<Expr, String> {
        let mut l = self.add()?;
        loop {
            let op = ["==", "!=", "<=", ">=", "<", ">"].into_iter().find(|o| self.peek_op(o));
            if let Some(op) = op {
                self.i += 1;
                l = Expr::Binary(op, Box::new(l), Box::new(self.add()?));
            } else if matches!(self.t.get(self.i), Some(Tok::Ident(s)) if s == "in") {
                self.i += 1;
                l = Expr::Binary("in", Box::new(l), Box::new(self.add()?));
            } else {
                return Ok(l);
            }
        }
    }
    fn add(&mut self) -> Result<Expr, String> {
        let mut l = self.mul()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                return Ok(l);
            };
            l = Expr::Binary(op, Box::new(l), Box::new(self.mul()?));
        }
    }
    fn mul(&mut self) -> Result<Expr, String> {
        let mut l = self.unary()?;
        loop {
            let op = ["*", "/", "%"].into_iter().find(|o| self.peek_op(o));
            match op {
                Some(op) => {
                    self.i += 1;
                    l = Expr::Binary(op, Box::new(l), Box::new(self.unary()?));
                }
                None => return Ok(l),
            }
        }
    }
    fn unary(&mut self) -> Result<Expr, String> {
        let op = if self.eat("!") {
            "!"
        } else if self.eat("-") {
            "-"
        } else {
            return self.postfix();
        };
        self.enter()?;
        let inner = self.unary();
        self.depth -= 1;
        Ok(Expr::Unary(op, Box::new(inner?)))
    }
    fn args(&mut self) -> Result<Vec<Expr>, String> {
        let mut a = Vec::new();
        if self.eat(")") {
            return Ok(a);
        }
        loop {
            a.push(self.expr()?);
            if self.eat(")") {
                return Ok(a);
            }
            self.expect(",")?;
        }
    }
    fn postfix(&mut self) -> Result<Expr, String> {
        let mut e = self.primary()?;
        loop {
            if self.eat(".") {
                let Some(Tok::Ident(name)) = self.t.get(self.i).cloned() else { return Err("Syntax error: missing IDENTIFIER".into()) };
                self.i += 1;
                if self.eat("(") {
                    let a = self.args()?;
                    e = Expr::Call(Some(Box::new(e)), name, a);
                } else {
                    e = Expr::Select(Box::new(e), name);
                }
            } else if self.eat("[") {
                let ix = self.expr()?;
                self.expect("]")?;
                e = Expr::Index(Box::new(e), Box::new(ix));
            } else {
                return Ok(e);
            }
        }
    }
    fn primary(&mut self) -> Result<Expr, String> {
        let t = self.t.get(self.i).cloned().ok_or("Syntax error: mismatched input '<EOF>'")?;
        self.i += 1;
        Ok(match t {
            Tok::Int(n) => Expr::Lit(Value::from(n)),
            Tok::Num(f) => Expr::Lit(serde_json::json!(f)),
            Tok::Str(s) => Expr::Lit(Value::String(s)),
            Tok::Ident(id) => match id.as_str() {
                "true" => Expr::Lit(Value::Bool(true)),
                "false" => Expr::Lit(Value::Bool(false)),
                "null" => Expr::Lit(Value::Null),
                _ if self.peek_op("(") => {
                    self.i += 1;
                    let a = self.args()?;
                    Expr::Call(None, id, a)
                }
                _ => Expr::Ident(id),
            },
            Tok::Op("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                e
            }
            Tok::Op("[") => {
                let mut items = Vec::new();
                if !self.eat("]") {
                    loop {
                        items.push(self.expr()?);
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Expr::List(items)
            }
            Tok::Op(o) => return Err(format!("Syntax error: mismatched input '{}'", o)),
        })
    }
}

const FUNCS: &[&str] = &["has", "size", "startsWith", "endsWith", "contains", "lowerAscii", "upperAscii", "matches", "int", "string", "double"];

fn check(e: &Expr) -> Result<(), String> {
    match e {
        Expr::Lit(_) => Ok(()),
        Expr::Ident(id) if id == "self" => Ok(()),
        Expr::Ident(id) => Err(format!("undeclared reference to '{}' (in container '')", id)),
        Expr::List(items) => items.iter().try_for_each(check),
        Expr::Select(b, _) => check(b),
        Expr::Index(a, b) => check(a).and(check(b)),
        Expr::Call(recv, name, args) => {
            if !FUNCS.contains(&name.as_str()) {
                return Err(format!("undeclared reference to '{}' (in container '')", name));
            }
            if name == "has" && !matches!(args.as_slice(), [Expr::Select(..)]) {
                return Err("invalid argument to has() macro".into());
            }
            if let Some(r) = recv {
                check(r)?;
            }
            args.iter().try_for_each(check)
        }
        Expr::Unary(_, a) => check(a),
        Expr::Binary(_, a, b) => check(a).and(check(b)),
        Expr::Cond(a, b, c) => check(a).and(check(b)).and(check(c)),
    }
}

/// Compiles a rule (the CRD's validation): Err is the compiler's message, as `compilation
/// failed: ERROR: <input>:1:…: <message>` shows it.
pub fn compile(rule: &str) -> Result<(), String> {
    parse(rule).map(|_| ())
}

fn parse(rule: &str) -> Result<Expr, String> {
    let toks = lex(rule)?;
    let mut p = P { t: toks, i: 0, depth: 0 };
    let e = p.expr()?;
    if p.i < p.t.len() {
        return Err(format!("Syntax error: extraneous input at token {}", p.i + 1));
    }
    check(&e)?;
    Ok(e)
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn eval(e: &Expr, this: &Value) -> Result<Value, String> {
    Ok(match e {
        Expr::Lit(v) => v.clone(),
        Expr::List(items) => Value::Array(items.iter().map(|i| eval(i, this)).collect::<Result<_, _>>()?),
        Expr::Ident(_) => this.clone(),
        Expr::Select(b, name) => {
            let base = eval(b, this)?;
            base.get(name).cloned().ok_or_else(|| format!("no such key: {}", name))?
        }
        Expr::Index(a, ix) => {
            let base = eval(a, this)?;
            let ix = eval(ix, this)?;
            match (&base, &ix) {
                (Value::Array(items), Value::Number(n)) => items.get(n.as_u64().unwrap_or(u64::MAX) as usize).cloned().ok_or_else(|| format!("index out of bounds: {}", n))?,
                (Value::Object(m), Value::String(k)) => m.get(k).cloned().ok_or_else(|| format!("no such key: {}", k))?,
                _ => return Err("no such overload".into()),
            }
        }
        Expr::Call(None, name, args) if name == "has" => {
            let Some(Expr::Select(b, field)) = args.first() else { return Err("invalid argument to has() macro".into()) };
            let base = eval(b, this)?;
            Value::Bool(base.get(field).map(|v| !v.is_null()).unwrap_or(false))
        }
        Expr::Call(recv, name, args) => {
            let mut vals = Vec::new();
            if let Some(r) = recv {
                vals.push(eval(r, this)?);
            }
            for a in args {
                vals.push(eval(a, this)?);
            }
            match (name.as_str(), vals.as_slice()) {
                ("size", [Value::String(s)]) => Value::from(s.chars().count() as i64),
                ("size", [Value::Array(a)]) => Value::from(a.len() as i64),
                ("size", [Value::Object(m)]) => Value::from(m.len() as i64),
                ("startsWith", [Value::String(a), Value::String(b)]) => Value::Bool(a.starts_with(b.as_str())),
                ("endsWith", [Value::String(a), Value::String(b)]) => Value::Bool(a.ends_with(b.as_str())),
                ("contains", [Value::String(a), Value::String(b)]) => Value::Bool(a.contains(b.as_str())),
                ("lowerAscii", [Value::String(a)]) => Value::String(a.to_ascii_lowercase()),
                ("upperAscii", [Value::String(a)]) => Value::String(a.to_ascii_uppercase()),
                ("matches", [Value::String(a), Value::String(re)]) => {
                    let r = crate::api::regexp::Regexp::compile(re)?;
                    Value::Bool(r.is_match(a).ok_or("regular expression too costly")?)
                }
                ("int", [v]) => Value::from(num(v).map(|f| f as i64).or_else(|| v.as_str().and_then(|s| s.parse().ok())).ok_or("no such overload")?),
                ("double", [v]) => serde_json::json!(num(v).or_else(|| v.as_str().and_then(|s| s.parse().ok())).ok_or("no such overload")?),
                ("string", [v]) => Value::String(v.as_str().map(String::from).unwrap_or_else(|| v.to_string())),
                _ => return Err(format!("no such overload: {}", name)),
            }
        }
        Expr::Unary("!", a) => Value::Bool(!eval(a, this)?.as_bool().ok_or("no such overload")?),
        Expr::Unary(_, a) => {
            let v = eval(a, this)?;
            match v.as_i64() {
                Some(i) => Value::from(-i),
                None => serde_json::json!(-num(&v).ok_or("no such overload")?),
            }
        }
        Expr::Binary("&&", a, b) => Value::Bool(eval(a, this)?.as_bool().ok_or("no such overload")? && eval(b, this)?.as_bool().ok_or("no such overload")?),
        Expr::Binary("||", a, b) => Value::Bool(eval(a, this)?.as_bool().ok_or("no such overload")? || eval(b, this)?.as_bool().ok_or("no such overload")?),
        Expr::Binary(op, a, b) => {
            let (x, y) = (eval(a, this)?, eval(b, this)?);
            binary(op, &x, &y)?
        }
        Expr::Cond(c, a, b) => {
            if eval(c, this)?.as_bool().ok_or("no such overload")? {
                eval(a, this)?
            } else {
                eval(b, this)?
            }
        }
    })
}

fn binary(op: &str, x: &Value, y: &Value) -> Result<Value, String> {
    use std::cmp::Ordering;
    let ord = || -> Result<Ordering, String> {
        match (x, y) {
            (Value::String(a), Value::String(b)) => Ok(a.cmp(b)),
            _ => {
                let (a, b) = (num(x).ok_or("no such overload")?, num(y).ok_or("no such overload")?);
                a.partial_cmp(&b).ok_or_else(|| "no such overload".to_string())
            }
        }
    };
    Ok(match op {
        "==" => Value::Bool(x == y || (num(x).is_some() && num(x) == num(y))),
        "!=" => Value::Bool(!(x == y || (num(x).is_some() && num(x) == num(y)))),
        "<" => Value::Bool(ord()? == Ordering::Less),
        "<=" => Value::Bool(ord()? != Ordering::Greater),
        ">" => Value::Bool(ord()? == Ordering::Greater),
        ">=" => Value::Bool(ord()? != Ordering::Less),
        "in" => match y {
            Value::Array(items) => Value::Bool(items.contains(x)),
            Value::Object(m) => Value::Bool(x.as_str().map(|k| m.contains_key(k)).unwrap_or(false)),
            _ => return Err("no such overload".into()),
        },
        "+" => match (x, y) {
            (Value::String(a), Value::String(b)) => Value::String(format!("{}{}", a, b)),
            (Value::Array(a), Value::Array(b)) => Value::Array(a.iter().chain(b).cloned().collect()),
            _ => arith(op, x, y)?,
        },
        _ => arith(op, x, y)?,
    })
}

fn arith(op: &str, x: &Value, y: &Value) -> Result<Value, String> {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return Ok(Value::from(match op {
            "+" => a.checked_add(b),
            "-" => a.checked_sub(b),
            "*" => a.checked_mul(b),
            "/" => a.checked_div(b),
            "%" => a.checked_rem(b),
            _ => None,
        }
        .ok_or("integer overflow or division by zero")?));
    }
    let (a, b) = (num(x).ok_or("no such overload")?, num(y).ok_or("no such overload")?);
    Ok(serde_json::json!(match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" => a / b,
        _ => return Err("no such overload".into()),
    }))
}

/// The rules of `schema` and of everything under it, against `v` (`path` the field path of `v`,
/// empty at the root: rendered `<nil>` as upstream's nil path).
pub fn validate_rules(schema: &Value, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let ty = schema.get("type").and_then(Value::as_str).unwrap_or(if schema.get("x-kubernetes-int-or-string").is_some() { "integer-or-string" } else { "object" });
    for rule in schema.get("x-kubernetes-validations").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
        let text = rule.get("rule").and_then(Value::as_str).unwrap_or("").trim();
        let Ok(e) = parse(text) else { continue };
        let at = {
            let base = if path.is_empty() { "<nil>".to_string() } else { path.to_string() };
            match rule.get("fieldPath").and_then(Value::as_str) {
                Some(fp) if !fp.is_empty() => if path.is_empty() { fp.trim_start_matches('.').to_string() } else { format!("{}{}", path, fp) },
                _ => base,
            }
        };
        let message = match rule.get("message").and_then(Value::as_str).map(str::trim).filter(|m| !m.is_empty()) {
            Some(m) => m.to_string(),
            None => format!("failed rule: {}", text),
        };
        let mk = |msg: &str| match rule.get("reason").and_then(Value::as_str).unwrap_or("FieldValueInvalid") {
            "FieldValueForbidden" => FieldError::forbidden(&at, msg),
            "FieldValueRequired" => FieldError::required(&at, msg),
            "FieldValueDuplicate" => FieldError::duplicate(&at, Value::String(ty.into())),
            _ => FieldError::invalid(&at, Value::String(ty.into()), msg),
        };
        match eval(&e, v) {
            Ok(Value::Bool(true)) => {}
            Ok(_) => errs.push(mk(&message)),
            Err(err) => errs.push(mk(&format!("{} evaluating rule: {}", err, text))),
        }
    }
    let childp = |k: &str| if path.is_empty() { k.to_string() } else { format!("{}.{}", path, k) };
    if let (Some(props), Some(m)) = (schema.get("properties").and_then(Value::as_object), v.as_object()) {
        for (k, sub) in props {
            if let Some(cv) = m.get(k) {
                validate_rules(sub, cv, &childp(k), errs);
            }
        }
    }
    if let (Some(is), Some(items)) = (schema.get("items").filter(|i| i.is_object()), v.as_array()) {
        for (i, it) in items.iter().enumerate() {
            validate_rules(is, it, &format!("{}[{}]", path, i), errs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Named table: the CRD documentation's validation rules (`x-kubernetes-validations`) and
    /// common idioms, with the message upstream builds.
    #[test]
    fn validation_rules() {
        let schema = |rules: Value| json!({"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-validations": rules}}});
        let docs = json!([
            {"rule": "self.minReplicas <= self.replicas", "message": "replicas should be greater than or equal to minReplicas."},
            {"rule": "self.replicas <= self.maxReplicas", "message": "replicas should be smaller than or equal to maxReplicas."}
        ]);
        let rows: Vec<(&str, Value, Value, Vec<&str>)> = vec![
            ("docs: replicas above maxReplicas", docs.clone(), json!({"spec": {"minReplicas": 0, "replicas": 20, "maxReplicas": 10}}), vec![r#"spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas."#]),
            ("docs: within bounds", docs, json!({"spec": {"minReplicas": 0, "replicas": 5, "maxReplicas": 10}}), vec![]),
            ("no message", json!([{"rule": "self.replicas <= self.maxReplicas"}]), json!({"spec": {"replicas": 20, "maxReplicas": 10}}), vec![r#"spec: Invalid value: "object": failed rule: self.replicas <= self.maxReplicas"#]),
            ("has()", json!([{"rule": "has(self.image) || has(self.template)"}]), json!({"spec": {}}), vec![r#"spec: Invalid value: "object": failed rule: has(self.image) || has(self.template)"#]),
            ("size and strings", json!([{"rule": "size(self.name) <= 8 && self.name.startsWith('web')"}]), json!({"spec": {"name": "web-1"}}), vec![]),
            ("reason and fieldPath", json!([{"rule": "self.name.endsWith('-prod')", "message": "must be a production name", "reason": "FieldValueForbidden", "fieldPath": ".name"}]), json!({"spec": {"name": "web"}}), vec!["spec.name: Forbidden: must be a production name"]),
            ("in a list", json!([{"rule": "self.tier in ['web', 'db']"}]), json!({"spec": {"tier": "cache"}}), vec![r#"spec: Invalid value: "object": failed rule: self.tier in ['web', 'db']"#]),
        ];
        for (name, rules, obj, want) in rows {
            let mut errs = Vec::new();
            validate_rules(&schema(rules), &obj, "", &mut errs);
            assert_eq!(errs.iter().map(|e| e.to_string()).collect::<Vec<_>>(), want, "{}", name);
        }
        assert!(compile("self.items.all(i, i > 0)").is_err());
        assert!(compile("self.a <= self.b").is_ok());
        assert!(compile("self.a <=").is_err());
        // nesting is bounded, as cel-go bounds it
        assert_eq!(compile(&format!("{}true{}", "(".repeat(10_000), ")".repeat(10_000))), Err("expression recursion limit exceeded".to_string()));
        assert_eq!(compile(&format!("{}true", "!".repeat(10_000))), Err("expression recursion limit exceeded".to_string()));
    }
}
