// Message lookup with {name} parameters, shared by the server and the browser.
export type Messages = Record<string, string>;
export type Params = Record<string, string | number>;
export type Translate = (key: string, params?: Params) => string;

export function createTranslate(messages: Messages, fallback?: Messages): Translate {
  return (key, params) => {
    const template = messages[key] ?? fallback?.[key] ?? key;
    if (!params) return template;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
  };
}
