import { renderMessage } from './render';
import type { TTriggerEventValue } from '../../../shared/alerts/rules';

/** Every name a plain object inherits (constructor, __proto__, toString, valueOf, hasOwnProperty, …) and `prototype`. */
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

const event = (over: Partial<TTriggerEventValue> = {}): TTriggerEventValue => ({
  state: 'TRIGGERED',
  value: 12.5,
  threshold: 20,
  parameter: 'State of charge',
  unit: '%',
  device: 'Battery bank',
  system: 'Farm',
  system_cuid: 's1',
  timezone: 'UTC',
  time: '2026-11-24T02:13:05.000Z',
  ...over,
});

describe('renderMessage: a placeholder is looked up among the placeholders only', () => {
  it('fills the known placeholders in every format', () => {
    expect(renderMessage('{device}: {value}{unit} at {time}', event())).toBe('Battery bank: 12.5% at 2026-11-24 02:13:05 (UTC)');
    expect(renderMessage('<{device}>', event(), 'html')).toBe('&lt;Battery bank&gt;');
  });

  it.each(INHERITED)('{%s} stays as written, in text, html and markdown', (name) => {
    const template = `Battery {value} {${name}} {${name}}`;
    expect(renderMessage(template, event(), 'text')).toBe(`Battery 12.5 {${name}} {${name}}`);
    expect(renderMessage(template, event(), 'html')).toBe(`Battery 12.5 {${name}} {${name}}`);
    expect(renderMessage(template, event(), 'markdown')).toBe(`Battery 12.5 {${name.replace(/_/g, '\\_')}} {${name.replace(/_/g, '\\_')}}`);
  });

  it.each(INHERITED)('%s as a value, a device, a parameter or a unit is shown literally', (name) => {
    const e = event({ value: name, threshold: name, device: name, parameter: name, unit: name, system: name });
    expect(renderMessage('{value}|{threshold}|{device}|{parameter}|{unit}|{system}', e)).toBe(Array(6).fill(name).join('|'));
  });
});
