// The denial a policy check throws; decide() turns it into a `{allow:false}` Decision.
import { AppError } from '../shared/errors.js';
import type { Decision } from './types.js';

export type Deny = Extract<Decision, { allow: false }>;
export type DenyClass = Deny['errorClass'];

/** A refused request: carries the stable rule id and a sentence saying what to do instead. */
export class PolicyDenial extends AppError {
  override readonly rule: string;
  declare readonly errorClass: DenyClass;

  constructor(rule: string, message: string, errorClass: DenyClass = 'policy_denied') {
    super(errorClass, message, { rule });
    this.name = 'PolicyDenial';
    this.rule = rule;
  }

  /** The Decision form of this denial. */
  toDecision(): Deny {
    return { allow: false, rule: this.rule, message: this.message, errorClass: this.errorClass };
  }
}

/** Throws a `policy_denied` denial. */
export function refuse(rule: string, message: string): never {
  throw new PolicyDenial(rule, message);
}

/** Throws a `path_denied` denial. */
export function refusePath(rule: string, message: string): never {
  throw new PolicyDenial(rule, message, 'path_denied');
}
