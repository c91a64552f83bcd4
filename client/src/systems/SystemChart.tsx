import { useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisLabel, fullLabel } from './chart-time';
import { formatNumber } from '../i18n/format';

export interface ChartParameter {
  parameter_id: string;
  label: string;
  unit: string | null;
}
export interface ChartPoint {
  t: number;
  min: number;
  max: number;
  avg: number;
}

export interface SystemChartProps {
  parameters: ChartParameter[];
  series: { parameter_id: string; points: ChartPoint[] }[];
  from: number;
  to: number;
  timeZone: string;
  locale: string;
  labels: { avg: string; min: string; max: string; time: string };
  /** A drag across the plot: the selected range, epoch ms. */
  onZoom(from: number, to: number): void;
  /** The plot's width in CSS pixels (about one point per pixel is asked for). */
  onWidth(width: number): void;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#393b79', '#637939'];
/** The labels an axis draws on the canvas, also kept on the host (data-ticks-x …) so tests and tools can read them. */
function ticks(host: HTMLElement, axis: string, labels: string[]): string[] {
  host.setAttribute(`data-ticks-${axis}`, labels.join('|'));
  return labels;
}

const HEIGHT = 320;

function alpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

/** Aligns every parameter's buckets on one x axis (seconds); a missing bucket is a gap. */
export function alignSeries(parameters: ChartParameter[], series: SystemChartProps['series']): uPlot.AlignedData {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.t)))].sort((a, b) => a - b);
  const index = new Map(xs.map((t, i) => [t, i]));
  const data: (number | null)[][] = [xs.map((t) => t / 1000)];
  for (const p of parameters) {
    const points = series.find((s) => s.parameter_id === p.parameter_id)?.points ?? [];
    const min = new Array<number | null>(xs.length).fill(null);
    const max = new Array<number | null>(xs.length).fill(null);
    const avg = new Array<number | null>(xs.length).fill(null);
    for (const pt of points) {
      const i = index.get(pt.t)!;
      min[i] = pt.min;
      max[i] = pt.max;
      avg[i] = pt.avg;
    }
    data.push(min, max, avg);
  }
  return data as uPlot.AlignedData;
}

/**
 * uPlot time series (loaded lazily with this module): per parameter a min–max band and the
 * average line, one y scale per unit, times on the axis in the system's zone, drag to zoom.
 */
export default function SystemChart(props: SystemChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });

  const { parameters, series, from, to, timeZone, locale, labels } = props;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const units = [...new Set(parameters.map((p) => p.unit ?? ''))];
    const scaleOf = (p: ChartParameter) => `u:${p.unit ?? ''}`;
    const uSeries: uPlot.Series[] = [{ label: labels.time, value: (_u, v) => (v == null ? '' : fullLabel(v * 1000, locale, timeZone)) }];
    const bands: uPlot.Band[] = [];
    parameters.forEach((p, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const unit = p.unit ? ` ${p.unit}` : '';
      const fmt = (_u: uPlot, v: number | null) => (v == null ? '—' : `${formatNumber(v, locale, { maximumFractionDigits: 2 })}${unit}`);
      const base = 1 + i * 3;
      uSeries.push(
        { label: `${labels.min}`, scale: scaleOf(p), stroke: alpha(colour, 0.35), width: 1, points: { show: false }, value: fmt },
        { label: `${labels.max}`, scale: scaleOf(p), stroke: alpha(colour, 0.35), width: 1, points: { show: false }, value: fmt },
        { label: `${p.label} (${labels.avg})`, scale: scaleOf(p), stroke: colour, width: 2, points: { show: false }, value: fmt },
      );
      bands.push({ series: [base + 1, base], fill: alpha(colour, 0.15) });
    });
    const axes: uPlot.Axis[] = [
      {
        values: (_u, splits, _axis, _space, incr) =>
          ticks(
            el,
            'x',
            splits.map((s) => axisLabel(s * 1000, incr * 1000, locale, timeZone)),
          ),
      },
    ];
    units.slice(0, 2).forEach((unit, i) =>
      axes.push({
        scale: `u:${unit}`,
        side: i === 0 ? 3 : 1,
        label: unit || undefined,
        grid: { show: i === 0 },
        size: 60,
        // uPlot writes numbers in the browser's language; these follow the portal's.
        values: (_u, splits) =>
          ticks(
            el,
            i === 0 ? 'y' : 'y2',
            splits.map((v) => formatNumber(v, locale, { maximumFractionDigits: 6 })),
          ),
      }),
    );
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
      scales: { x: { time: true, range: () => [from / 1000, to / 1000] } },
      series: uSeries,
      bands,
      axes,
      cursor: { drag: { x: true, y: false, setScale: false } },
      legend: { live: true },
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const a = u.posToVal(u.select.left, 'x');
            const b = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            if (b > a) latest.current.onZoom(Math.round(a * 1000), Math.round(b * 1000));
          },
        ],
        draw: [(u) => u.root.parentElement?.setAttribute('data-drawn', String(Number(u.root.parentElement.getAttribute('data-drawn') ?? 0) + 1))],
      },
    };
    const u = new uPlot(opts, alignSeries(parameters, series), el);
    plot.current = u;
    return () => {
      u.destroy();
      plot.current = null;
    };
  }, [parameters, series, from, to, timeZone, locale, labels]);

  // Follows the container's width: resizes the plot and tells the page (points ≈ pixels).
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let last = 0;
    const observer = new ResizeObserver(() => {
      const width = Math.max(200, Math.floor(el.clientWidth));
      if (width === last) return;
      last = width;
      plot.current?.setSize({ width, height: HEIGHT });
      latest.current.onWidth(width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return <div ref={host} data-testid="uplot-host" style={{ width: '100%', minHeight: HEIGHT }} />;
}
