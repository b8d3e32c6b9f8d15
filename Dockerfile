# Folio's team-server image: the API (`folio serve --no-workers`) and the workers (`folio worker`) are both
# this image with a different command (compose.yaml). It carries the native tesseract program (the OCR
# engine `auto` picks when it is installed: same models, about 1.6x faster than the embedded WASM engine)
# with its orientation model, and LibreOffice for office uploads. Nothing is downloaded at run time.
#
#   docker build -t folio .
#   docker compose up -d --scale worker=4
#
# Build stage: native modules (better-sqlite3, sharp) build against this Node; the renderer and the main
# process are compiled (`npm run build`: dist/renderer, dist/main), then the dev dependencies go.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tini ca-certificates fonts-dejavu-core poppler-utils \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd \
      libreoffice-core-nogui libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
# The compiled program only (no TypeScript at run time); listen on every interface of the container
# (the published port and FOLIO_ALLOWED_HOSTS decide who reaches it); the data folder is a volume for
# the temporary files of uploads and the local cache of the object store.
ENV NODE_ENV=production \
    FOLIO_RUN=compiled \
    FOLIO_HOST=0.0.0.0 \
    FOLIO_PORT=8427 \
    FOLIO_DATA_DIR=/data \
    FOLIO_OCR_ENGINE=native
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8427
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/folio.mjs"]
CMD ["serve", "--no-workers"]
