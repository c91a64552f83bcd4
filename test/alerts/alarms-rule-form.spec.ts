import { cleanRule, ruleErrors, transformRule, validateRuleForm } from '../../client/src/alerts/setup/rule-form';

/** The trigger rule form validates in the browser with the server's own ZTriggerRule / ZTemplateRule. */
describe('trigger rule form (browser validation with ZTriggerRule)', () => {
  const threshold = {
    kind: 'threshold',
    entity_cuid: 'e1',
    parameter_id: 'soc',
    op: 'below',
    value: 20,
    release_value: 25,
    for_seconds: 60,
    release_for_seconds: 120,
  };

  it('accepts a valid threshold rule and keeps exactly its fields', () => {
    expect(ruleErrors(threshold)).toEqual({});
    expect(transformRule({ name: 'x', args: { ...threshold, after_seconds: null, key: '' } })).toEqual({ name: 'x', args: threshold });
  });

  it('says which side the release value must be on', () => {
    expect(ruleErrors({ ...threshold, release_value: 15 })).toEqual({ release_value: 'Must be at least the trigger value (it releases above it)' });
    expect(ruleErrors({ ...threshold, op: 'above', value: 80, release_value: 90 })).toEqual({
      release_value: 'Must be at most the trigger value (it releases below it)',
    });
    expect(validateRuleForm()({ args: { ...threshold, release_value: 15 } })).toEqual({ args: { release_value: expect.stringMatching(/at least/) } });
    // Empty release value = the trigger value.
    expect(ruleErrors({ ...threshold, release_value: null })).toEqual({});
  });

  it('checks each kind: required device, durations, controller optional, state values typed as JSON', () => {
    expect(Object.keys(ruleErrors({ kind: 'no_data', parameter_id: 'soc', after_seconds: 0 })).sort()).toEqual(['after_seconds', 'entity_cuid']);
    expect(ruleErrors({ kind: 'offline', after_seconds: 600 })).toEqual({});
    expect(ruleErrors({ kind: 'offline', after_seconds: 8 * 24 * 3600 })).toEqual({ after_seconds: expect.stringMatching(/7 days/) });
    expect(cleanRule({ kind: 'state', entity_cuid: 'e', key: 'mode', op: 'equals', value: '3', for_seconds: 0 }).value).toBe(3);
    expect(cleanRule({ kind: 'state', entity_cuid: 'e', key: 'mode', op: 'equals', value: 'Inverting', for_seconds: 0 }).value).toBe('Inverting');
    expect(ruleErrors({ kind: 'state', entity_cuid: 'e', key: 'mode', op: 'equals', value: 'true' })).toEqual({});
    expect(ruleErrors({ kind: 'nope' })).toEqual({ kind: expect.any(String) });
  });

  it('template assignments: the same rules without the device, and no offline rule', () => {
    const { entity_cuid: _e, ...rule } = threshold;
    expect(ruleErrors(rule, true)).toEqual({});
    expect(ruleErrors({ kind: 'offline', after_seconds: 60 }, true)).toEqual({ kind: expect.any(String) });
  });
});
