// Icons drawn inline from a local set: no icon service at run time
// (docs/product/api.md#other-paths). Paths are 24×24, stroke-based.
import type { SVGProps } from "react";

const PATHS = {
  shield: "M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6l8-3z M9 12l2 2 4-4",
  bolt: "M13 2L4 14h7l-1 8 9-12h-7l1-8z",
  headset: "M4 14v-2a8 8 0 0116 0v2 M4 14h3v6H5a1 1 0 01-1-1v-5z M20 14h-3v6h2a1 1 0 001-1v-5z",
  snowflake: "M12 2v20 M4.9 6.5l14.2 11 M4.9 17.5l14.2-11 M9 4l3 2 3-2 M9 20l3-2 3 2",
  globe: "M12 21a9 9 0 100-18 9 9 0 000 18z M3 12h18 M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z",
  user: "M12 12a4 4 0 100-8 4 4 0 000 8z M4 21c0-4 3.6-7 8-7s8 3 8 7",
  arrowRight: "M5 12h14 M13 6l6 6-6 6",
  check: "M5 12l5 5L20 7",
  close: "M6 6l12 12 M18 6L6 18",
  alert: "M12 9v4 M12 17h.01 M10.3 3.9L1.8 18a2 2 0 001.7 3h17a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z",
  gamepad: "M6 11h4 M8 9v4 M15 12h.01 M18 10h.01 M17.3 5H6.7a4 4 0 00-4 3.6L2 15a3 3 0 005.1 2.1L9 15h6l1.9 2.1A3 3 0 0022 15l-.7-6.4A4 4 0 0017.3 5z",
  clock: "M12 21a9 9 0 100-18 9 9 0 000 18z M12 7v5l3 2",
  gift: "M20 12v9H4v-9 M2 7h20v5H2z M12 22V7 M12 7H7.5a2.5 2.5 0 110-5C11 2 12 7 12 7z M12 7h4.5a2.5 2.5 0 100-5C13 2 12 7 12 7z",
  menu: "M4 6h16 M4 12h16 M4 18h16",
  bell: "M18 8a6 6 0 10-12 0c0 7-3 9-3 9h18s-3-2-3-9 M13.7 21a2 2 0 01-3.4 0",
  download: "M12 3v12 M7 10l5 5 5-5 M4 20h16",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 20, ...rest }: { name: IconName; size?: number } & SVGProps<SVGSVGElement>) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
