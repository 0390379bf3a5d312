# syntax=docker/dockerfile:1
# Test Report Center: build in one stage, run the built JavaScript with production dependencies only.
# Not built on the development machines (no Docker engine there); checked with hadolint.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Dependencies first: this layer is reused while package*.json do not change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Web app (with .br/.gz assets) into dist/web, server bundle and its migrations into dist/server.
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/test-report-center
# The server's memory at rest: malloc as scripts/server-process.mjs sets it (docs/decisions/0033-server-memory.md).
ENV MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. Not --omit=optional: @node-rs/argon2's native binding is an optional
# dependency (the server does not start without it). pino-pretty comes along but is unused: no TTY here.
RUN npm ci --omit=dev --no-audit --no-fund \
    && npm cache clean --force \
    && mkdir -p /var/lib/test-report-center \
    && chown node:node /var/lib/test-report-center \
    && chmod 0700 /var/lib/test-report-center
COPY --from=build /app/dist ./dist
# The image's own non-root user (uid 1000); it owns only the data directory, closed to everyone else (a new
# volume copies that mode; the server keeps what it writes there owner-only, docs/operations.md).
USER node
VOLUME ["/var/lib/test-report-center"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm start): signals reach the server, which drains requests and closes the database.
# The flags of scripts/server-process.mjs (docs/decisions/0033-server-memory.md).
CMD ["node", "--max-semi-space-size=4", "dist/server/main.js"]
