// The dashboard's charts (docs/product/back-office.md#dashboard): SVG drawn on the server with d3's
// scales and shapes (d3-scale, d3-shape) — no script in the browser; each chart has a title, a
// text alternative and a table of its figures for screen readers.
import { scaleBand, scaleLinear, scalePoint } from "d3-scale";
import { line } from "d3-shape";

const W = 640;
const H = 220;
const M = { top: 12, right: 12, bottom: 28, left: 56 };
const COLORS = ["var(--accent, #6d5dfc)", "#16a34a", "#ea580c", "#0891b2", "#db2777", "#ca8a04"];

export type Point = { label: string; value: number };

function Axis({ y, format }: { y: ReturnType<typeof scaleLinear<number, number>>; format: (n: number) => string }) {
  return (
    <g className="chart-axis">
      {y.ticks(4).map((tick) => (
        <g key={tick} transform={`translate(0,${y(tick)})`}>
          <line x1={M.left} x2={W - M.right} stroke="currentColor" strokeOpacity={0.12} />
          <text x={M.left - 6} dy="0.32em" textAnchor="end" fontSize={11} fill="currentColor">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Days' labels along the bottom: the first, the last and a few between. */
function DayLabels({ labels, at }: { labels: string[]; at: (label: string) => number }) {
  const step = Math.max(1, Math.ceil(labels.length / 6));
  return (
    <g className="chart-days">
      {labels.map((label, i) =>
        i % step === 0 || i === labels.length - 1 ? (
          <text key={label} x={at(label)} y={H - 8} textAnchor="middle" fontSize={11} fill="currentColor">
            {label.slice(5)}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function BarChart({ title, points, format }: { title: string; points: Point[]; format: (n: number) => string }) {
  const x = scaleBand()
    .domain(points.map((p) => p.label))
    .range([M.left, W - M.right])
    .padding(0.2);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...points.map((p) => p.value))])
    .nice()
    .range([H - M.bottom, M.top]);
  return (
    <figure className="chart">
      <figcaption className="h3">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="chart-svg">
        <Axis y={y} format={format} />
        {points.map((p) => (
          <rect key={p.label} x={x(p.label)} y={y(p.value)} width={x.bandwidth()} height={y(0) - y(p.value)} fill={COLORS[0]} rx={2}>
            <title>{`${p.label}: ${format(p.value)}`}</title>
          </rect>
        ))}
        <DayLabels labels={points.map((p) => p.label)} at={(label) => (x(label) ?? 0) + x.bandwidth() / 2} />
      </svg>
      <FigureTable rows={points.map((p) => [p.label, format(p.value)])} />
    </figure>
  );
}

export type Series = { name: string; points: Point[] };

export function LineChart({ title, series, labels, format }: { title: string; series: Series[]; labels: string[]; format: (n: number) => string }) {
  const x = scalePoint()
    .domain(labels)
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.value)))])
    .nice()
    .range([H - M.bottom, M.top]);
  const path = line<Point>()
    .x((p) => x(p.label) ?? 0)
    .y((p) => y(p.value));
  return (
    <figure className="chart">
      <figcaption className="h3">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="chart-svg">
        <Axis y={y} format={format} />
        {series.map((s, i) => (
          <path key={s.name} d={path(s.points) ?? ""} fill="none" stroke={COLORS[i % COLORS.length]} strokeWidth={2} />
        ))}
        <DayLabels labels={labels} at={(label) => x(label) ?? 0} />
      </svg>
      <ul className="chart-legend">
        {series.map((s, i) => (
          <li key={s.name}>
            {/* The colour as an SVG attribute: the page's CSP (style-src 'self') refuses style attributes. */}
            <svg className="chart-swatch" viewBox="0 0 1 1" aria-hidden="true">
              <rect width={1} height={1} fill={COLORS[i % COLORS.length]} />
            </svg>
            {s.name}
          </li>
        ))}
      </ul>
      <FigureTable rows={labels.map((label) => [label, series.map((s) => `${s.name} ${format(s.points.find((p) => p.label === label)?.value ?? 0)}`).join(", ")])} />
    </figure>
  );
}

function FigureTable({ rows }: { rows: string[][] }) {
  return (
    <table className="visually-hidden">
      <tbody>
        {rows.map((row) => (
          <tr key={row[0]}>
            {row.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
