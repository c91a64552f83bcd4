/**
 * PV energy as bars with a total: one system (`system_cuid`, telemetry.energy) or the caller's whole
 * fleet (fleet.energy), per day or per month, over a range. Placeholder until the bars land.
 */
export interface EnergyBarsProps {
  /** One system; absent → the fleet (optionally one company's). */
  system_cuid?: string;
  company_cuid?: string;
  granularity: 'day' | 'month';
  from: Date;
  to: Date;
  height?: number;
}

export default function EnergyBars(props: EnergyBarsProps) {
  return <div data-testid="energy-bars" data-granularity={props.granularity} style={{ height: props.height ?? 220 }} />;
}
