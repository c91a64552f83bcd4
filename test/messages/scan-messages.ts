import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Every message text the server's sources can answer a caller, found by walking the TypeScript
 * AST of server/src (tests excluded): the message of `new TRPCError({ message })`, `fieldError`,
 * `fieldErrors`, `notFound`, `forbidden`, `stepUpRequired`, Nest exceptions, zod's `.refine`,
 * `.min/.max/.regex…` messages, `ctx.addIssue({ message })`, every `message:` / `error:` property
 * and the values of tables named `…MESSAGES`. A template literal becomes a template with `{}` for
 * each variable part; a conditional gives both branches.
 */
export interface FoundMessage {
  /** The text; `{}` stands for a variable part. */
  text: string;
  where: string;
  /** `notFound(what)`: the text is what was not found (the answer is `{what} not found`). */
  kind: 'message' | 'what';
}

const CALLS_MESSAGE_ARG: Record<string, number> = {
  fieldError: 1,
  forbidden: 0,
  stepUpRequired: 0,
  refine: 1,
  min: 1,
  max: 1,
  length: 1,
  regex: 1,
  email: 0,
  url: 0,
  uuid: 0,
  int: 0,
  positive: 0,
  nonnegative: 0,
  startsWith: 1,
  endsWith: 1,
  includes: 1,
  gte: 1,
  lte: 1,
  gt: 1,
  lt: 1,
  nonempty: 0,
  datetime: 0,
};
const EXCEPTION = /(Exception|Error|Fail)$/;
/** Errors that never reach a caller as they are (they answer 500 "Internal server error"). */
const BUILT_IN = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'DOMException', 'AggregateError', 'EvalError', 'URIError']);
/** Helpers that answer an HTTP error: every text argument is a message. */
const FAIL_HELPERS = new Set(['fail', 'reject', 'badRequest']);
const MESSAGE_PROPS = new Set(['message', 'error']);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The texts an expression can be: literals, templates (`{}` for variables), both branches of a conditional. */
function textsOf(node: ts.Expression): string[] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return textsOf(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) text += '{}' + span.literal.text;
    return [text];
  }
  if (ts.isConditionalExpression(node)) return [...textsOf(node.whenTrue), ...textsOf(node.whenFalse)];
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = textsOf(node.left);
    const right = textsOf(node.right);
    const l = left.length ? left : ['{}'];
    const r = right.length ? right : ['{}'];
    if (!left.length && !right.length) return [];
    return l.flatMap((a) => r.map((b) => a + b));
  }
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  ) {
    return [...textsOf(node.left), ...textsOf(node.right)];
  }
  return [];
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

export function scanMessages(root: string): FoundMessage[] {
  const found: FoundMessage[] = [];
  for (const file of files(join(root, 'server', 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const rel = relative(root, file);
    const add = (node: ts.Expression, kind: FoundMessage['kind'] = 'message', keep: (text: string) => boolean = () => true) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      for (const text of textsOf(node)) if (/[A-Za-z]{2}/.test(text) && keep(text)) found.push({ text, where: `${rel}:${line}`, kind });
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node);
        const args = node.arguments ?? ts.factory.createNodeArray();
        if (name === 'notFound' && args[0]) add(args[0], 'what');
        else if (name && name in CALLS_MESSAGE_ARG) {
          const arg = args[CALLS_MESSAGE_ARG[name]];
          // zod's `.min(1, 'msg')`, `.refine(fn, 'msg')`: a string argument is the message.
          if (arg && !ts.isObjectLiteralExpression(arg)) add(arg);
        } else if (name === 'fieldErrors' && args[1]) add(args[1]);
        else if (name && ((EXCEPTION.test(name) && !BUILT_IN.has(name) && ts.isNewExpression(node)) || FAIL_HELPERS.has(name))) {
          // A message among the arguments: any text with a space (codes such as 'FORBIDDEN' have none).
          for (const arg of args) if (!ts.isObjectLiteralExpression(arg)) add(arg, 'message', (text) => / /.test(text));
        }
      }
      if (ts.isPropertyAssignment(node) && MESSAGE_PROPS.has(node.name.getText(source))) add(node.initializer);
      // A resource's `label` is what its NOT_FOUND names (`${label} not found`).
      if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'label' && /resource/i.test(rel)) add(node.initializer, 'what');
      // Tables of messages: const FAILURE_MESSAGES = { KEY: 'text', … }
      if (ts.isVariableDeclaration(node) && /MESSAGES?$/.test(node.name.getText(source)) && node.initializer) {
        let init: ts.Expression = node.initializer;
        while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
        const table = (o: ts.Expression) => {
          if (!ts.isObjectLiteralExpression(o)) return add(o);
          for (const p of o.properties) if (ts.isPropertyAssignment(p)) table(p.initializer);
        };
        table(init);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
