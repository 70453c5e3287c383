import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  buildDirectory: "build",
  ssr: true,
  future: {
    // Loaders and actions get the request as it came, not two new copies of it per route (decision
    // 0070); they read the page's URL from their `url` argument, which React Router normalizes.
    v8_passThroughRequests: true,
  },
} satisfies Config;
