// Vite's client types for the renderer: CSS imports, import.meta.env and asset URLs.
/// <reference types="vite/client" />
