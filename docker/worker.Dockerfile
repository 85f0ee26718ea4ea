# A decodex worker: all task queues, talking to the Temporal server named by TEMPORAL_ADDRESS.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# glibc gives every thread that allocates (the Temporal core's, libuv's) a malloc arena of its
# own; two arenas cut the worker's peak memory by about 95 MB in `npm run bench:prepare`.
ENV MALLOC_ARENA_MAX=2
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
CMD ["node", "bin/decodex.js", "worker"]
