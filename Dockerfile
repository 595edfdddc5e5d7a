# Macrolock portal image.
#   docker build -t macrolock/portal:0.1.0 .
#   docker run --rm -p 3000:3000 -v portal-data:/app/data \
#     -e IDENTITY_MODE=cognito -e COGNITO_USER_POOL_ID=... -e COGNITO_CLIENT_ID=... \
#     macrolock/portal:0.1.0
# See docs/deployment.md.

# ---------------------------------------------------------------------------
# Build stage: full dependency tree, produces dist/ (server bundle, client assets,
# manifest.json).
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------
# Runtime stage: production dependencies and dist/ only, non-root.
FROM node:20-bookworm-slim AS runtime

# tini as PID 1 forwards SIGTERM/SIGINT to node and reaps zombies; the server
# handles SIGTERM itself (readiness off, delay, drain, exit 0).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

# Numeric UID/GID so Kubernetes' runAsNonRoot can verify the user.
RUN groupadd --system --gid 10001 portal \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin portal

WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false

COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force \
 && rm -rf /root/.npm /tmp/*

COPY --from=build /app/dist ./dist

# The application files stay owned by root (read-only for the app); only the data
# directory (embedded PGlite database) belongs to the runtime user.
RUN mkdir -p /app/data && chown 10001:10001 /app/data && chmod 0750 /app/data

USER 10001:10001
EXPOSE 3000

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server.js"]
