# A decodex worker: all task queues, talking to the Temporal server named by TEMPORAL_ADDRESS.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# bin/decodex starts Node with decodex's process settings (malloc arenas and threshold, V8 heap
# settings by role: see bin/decodex-node).
CMD ["bin/decodex", "worker"]
