// @ts-check
/**
 * Wraps what Prettier leaves over the line width: Prettier breaks code, but never a comment or
 * a string. This splits, in the files named (or every tracked source file):
 * - comment lines (`//` and block comment ` * ` lines), rewrapped at word boundaries with the
 *   same prefix (a list item's continuation indented under its text);
 * - string literals, into a concatenation of pieces cut at spaces;
 * - untagged one-line template literals, into a concatenation of templates cut at a space outside
 *   any `${}`;
 * - SQL in tagged templates (`sql`, `$queryRaw`, `$executeRaw`, ...), onto a new line at a space
 *   outside quotes and `${}`, where whitespace means nothing.
 * Prettier then lays the result out (`npm run format` runs both). What cannot be cut (a URL, a
 * word longer than the width, a type-level literal) is left as it is and listed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

const WIDTH = 120;
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SQL_TAG = /(^|\.)(sql|\$queryRaw|\$executeRaw|\$queryRawUnsafe|queryRaw|executeRaw|raw|Prisma\.sql)$/i;

const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => SOURCE.test(f) && !/(^|\/)(dist|bundle|generated|node_modules)\//.test(f));

let changed = 0;
const leftOver = [];
for (const file of files) {
  const before = readFileSync(file, 'utf8');
  let text = before;
  // Each pass fixes what it can on the text the last one left; code edits shift offsets, so
  // they are applied from the end of the file backwards.
  text = wrapCode(file, text);
  text = wrapComments(text);
  if (text !== before) {
    writeFileSync(file, text);
    changed++;
  }
  text.split('\n').forEach((line, i) => {
    if (line.length > WIDTH) leftOver.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
  });
}
console.log(`wrap-long-lines: ${changed} file(s) changed, ${leftOver.length} line(s) still over ${WIDTH}`);
for (const line of leftOver) console.log(`  ${line}`);

/** Lines over the width that are comments, rewrapped. */
function wrapComments(text) {
  const out = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trimStart();
    const startsBlock = trimmed.startsWith('/*');
    const isBlockLine = inBlock || startsBlock;
    if (startsBlock && !trimmed.includes('*/')) inBlock = true;
    else if (inBlock && trimmed.includes('*/')) inBlock = false;
    if (line.length <= WIDTH) {
      out.push(line);
      continue;
    }
    const oneLine = /^(\s*)\/\*\*\s(.*)\s\*\/\s*$/.exec(line);
    if (oneLine) {
      out.push(`${oneLine[1]}/**`, ...fill(oneLine[2], `${oneLine[1]} * `, `${oneLine[1]} * `), `${oneLine[1]} */`);
      continue;
    }
    const lineComment = /^(\s*\/\/\s?)(.*)$/.exec(line);
    const blockLine = isBlockLine && !trimmed.includes('*/') ? /^(\s*\*\s?)(.*)$/.exec(line) : null;
    const match = lineComment ?? blockLine;
    if (!match || /^\s*\|/.test(match[2])) {
      out.push(line);
      continue;
    }
    const [, prefix, body] = match;
    const item = /^((?:[-*]|\d+\.)\s+)/.exec(body);
    const hanging = prefix + (item ? ' '.repeat(item[1].length) : '');
    out.push(...fill(body, prefix, hanging));
  }
  return out.join('\n');
}

/** Greedy fill of `body`'s words: the first line after `first`, the others after `rest`. */
function fill(body, first, rest) {
  const lines = [];
  let current = first;
  let empty = true;
  for (const word of body.split(' ')) {
    if (!empty && current.length + 1 + word.length > WIDTH) {
      lines.push(current);
      current = rest + word;
      continue;
    }
    current += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(current);
  return lines;
}

/** String literals and templates on lines over the width, cut into pieces. */
function wrapCode(file, text) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.(m|c)?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineEnds = [];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineEnds.push(i);
  lineEnds.push(text.length);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const long = (pos) => {
    const line = lineOf(pos);
    const start = line === 0 ? 0 : lineEnds[line - 1] + 1;
    return lineEnds[line] - start > WIDTH;
  };
  /** @type {Array<{ start: number; end: number; text: string }>} */
  const edits = [];
  const visit = (node) => {
    if (ts.isStringLiteral(node) && long(node.getStart()) && splittable(node)) {
      const raw = node.getText();
      const pieces = cut(raw.slice(1, -1), 60);
      if (pieces.length > 1)
        edits.push({ start: node.getStart(), end: node.end, text: pieces.map((p) => raw[0] + p + raw[0]).join(' + ') });
      return;
    }
    if (
      (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) &&
      !ts.isTaggedTemplateExpression(node.parent)
    ) {
      const raw = node.getText();
      if (!raw.includes('\n') && long(node.getStart()) && splittable(node)) {
        const pieces = cut(raw.slice(1, -1), 60, true);
        if (pieces.length > 1)
          edits.push({ start: node.getStart(), end: node.end, text: pieces.map((p) => '`' + p + '`').join(' + ') });
      }
      return;
    }
    if (ts.isTaggedTemplateExpression(node) && SQL_TAG.test(node.tag.getText())) {
      const start = node.template.getStart();
      const raw = node.template.getText();
      const rewrapped = wrapSql(raw, text, start);
      if (rewrapped !== raw) edits.push({ start, end: node.template.end, text: rewrapped });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  edits.sort((a, b) => b.start - a.start);
  let result = text;
  for (const edit of edits) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** Whether a literal may become an expression: not a module name, key, type or enum member. */
function splittable(node) {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent))
    return false;
  if (ts.isLiteralTypeNode(parent) || (ts.isPropertyAssignment(parent) && parent.name === node)) return false;
  if (ts.isPropertySignature(parent) || (ts.isPropertyDeclaration(parent) && parent.name === node)) return false;
  if (
    ts.isEnumMember(parent) ||
    ts.isJsxAttribute(parent) ||
    (ts.isCallExpression(parent) && parent.expression.getText() === 'require')
  )
    return false;
  if (ts.isElementAccessExpression(parent) || ts.isCaseClause(parent)) return false;
  return node.getText().length > 40;
}

/**
 * Cuts a literal's raw text at spaces into pieces of about `size` characters (each piece keeps
 * its trailing space). In a template, never inside `${}`.
 */
function cut(raw, size, template = false) {
  const pieces = [];
  let depth = 0;
  let last = 0;
  let space = -1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (template && c === '$' && raw[i + 1] === '{' && raw[i - 1] !== '\\') {
      depth++;
      i++;
    } else if (template && depth > 0 && c === '{') depth++;
    else if (template && c === '}' && depth > 0) depth--;
    else if (c === ' ' && depth === 0 && raw[i - 1] !== '\\') space = i;
    if (i - last >= size && space > last) {
      pieces.push(raw.slice(last, space + 1));
      last = space + 1;
      space = -1;
    }
  }
  pieces.push(raw.slice(last));
  return pieces.filter((p) => p.length > 0);
}

/** A SQL template's long lines broken at a space outside SQL quotes and `${}`. */
function wrapSql(raw, text, start) {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let column = start - lineStart;
  const out = [];
  let lineBegin = 0;
  let depth = 0;
  let quoted = false;
  // A SQL line comment runs to the end of its line: nothing after `--` may move to a new line.
  let commented = false;
  let lastSpace = -1;
  let indent = /^[ \t]*/.exec(text.slice(lineStart))[0];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\n') {
      lineBegin = i + 1;
      column = 0;
      lastSpace = -1;
      commented = false;
      indent = /^[ \t]*/.exec(raw.slice(i + 1))[0];
      out.push(c);
      continue;
    }
    if (c === '$' && raw[i + 1] === '{') depth++;
    else if (c === '{' && depth > 0 && raw[i - 1] !== '$') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === "'" && depth === 0) quoted = !quoted;
    else if (c === '-' && raw[i + 1] === '-' && depth === 0 && !quoted) commented = true;
    else if (c === ' ' && depth === 0 && !quoted && !commented && i - lineBegin > indent.length) lastSpace = out.length;
    out.push(c);
    const width = column + (i - lineBegin) + 1;
    if (width > WIDTH && lastSpace >= 0) {
      const rest = out.splice(lastSpace + 1);
      const continuation = indent + '  ';
      out[lastSpace] = '\n' + continuation;
      out.push(...rest);
      // Columns now count from the new line's start, its indent included.
      column = 0;
      lineBegin = i - rest.length + 1 - continuation.length;
      lastSpace = -1;
    }
  }
  return out.join('');
}
