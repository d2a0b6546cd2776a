import type { ZodError, ZodIssue } from 'zod';
import type { Issue } from '../../contract/common/index.js';

/** `['invoice', 'lineItems', 3, 'quantity']` → `invoice.lineItems[3].quantity`. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

function toIssues(issue: ZodIssue, prefix: ReadonlyArray<string | number>): Issue[] {
  const path = [...prefix, ...issue.path];
  switch (issue.code) {
    case 'unrecognized_keys':
      // One issue per unknown property, pointing at the property itself.
      return issue.keys.map((key) => ({
        code: 'unknown_property',
        path: formatPath([...path, key]),
        message: `Unknown property "${key}"`,
      }));
    case 'invalid_type':
      if (issue.received === 'undefined') return [{ code: 'required', path: formatPath(path), message: 'Required' }];
      return [{ code: 'invalid_type', path: formatPath(path), message: issue.message }];
    case 'invalid_union':
      // Report the alternative that got furthest rather than an opaque "invalid input".
      if (issue.unionErrors.length > 0) {
        const best = [...issue.unionErrors].sort((a, b) => a.issues.length - b.issues.length)[0]!;
        return best.issues.flatMap((inner) => toIssues(inner, prefix));
      }
      return [{ code: issue.code, path: formatPath(path), message: issue.message }];
    default:
      return [{ code: issue.code === 'custom' ? 'invalid_value' : issue.code, path: formatPath(path), message: issue.message }];
  }
}

/** Every problem of a ZodError as our issues, one per problem, with dotted paths. */
export function issuesFromZodError(error: ZodError, prefix: ReadonlyArray<string | number> = []): Issue[] {
  return error.issues.flatMap((issue) => toIssues(issue, prefix));
}
