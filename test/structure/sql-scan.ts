import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/** Words that start a statement or a clause no other text starts with in this code base. */
const SQL =
  /^\s*(?:\(\s*)?(?:SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\(|WITH\s+RECURSIVE\s|CREATE\s|ALTER\s|DROP\s|TRUNCATE\s|LOCK\s+TABLE|LISTEN\s|NOTIFY\s|VACUUM|ANALYZE\s)|\b(?:SELECT\s[\s\S]*\sFROM\s|INSERT\s+INTO\s|DELETE\s+FROM\s|ON\s+CONFLICT\s|UPDATE\s+"?\w+"?\s+SET\s|RETURNING\s)/;

export interface SqlText {
  file: string;
  line: number;
  text: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [p] : [];
  });
}

/** Every string or template literal of server/src (specs aside) whose text reads as SQL. */
export function sqlTexts(root: string): SqlText[] {
  const out: SqlText[] = [];
  for (const path of walk(join(root, 'server', 'src'))) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      let text: string | undefined;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
      else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' $x ');
      if (text !== undefined && SQL.test(text)) {
        out.push({
          file: relative(root, path).split('\\').join('/'),
          line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          text: text.slice(0, 80),
        });
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}
