# Sourced by the scripts: PATH with cargo's bin and the npm-installed wasm-opt first.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/tests/webdriver.json"
export CHROMIUM_BIN=/usr/bin/chromium
