import { regex, type Validator } from 'react-admin';

/**
 * react-admin's `regex` validator with its type spelled out: its declaration names lodash's
 * MemoizedFunction, whose types the project does not install, so it reads as an unresolved type.
 * The same function (memoized per pattern and message).
 */
export const matches = regex as unknown as (pattern: RegExp, message: string) => Validator;
