/** Where Sibyl listens unless told otherwise (the README's commands name this address; the pages rewrite it to the real one). */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4021;
