# The Python that `rmtsweep plot` runs and the tests use: an interpreter that imports h5py, numpy and xarray
# (on Debian: /usr/bin/python3 with python3-h5py, python3-xarray, ...; scripts/install-deps.sh). The first
# python3 on PATH may be another one without them (pyenv, conda, a venv), which FindPython3 would take: so
# unless -DPython3_EXECUTABLE=... says which, every python3 on PATH is tried in order and the first that
# imports the modules is taken (docs/install.md).
set(RMTSWEEP_PYTHON_MODULES h5py numpy xarray)

function(rmtsweep_python_has_modules python result)
  string(REPLACE ";" ", " imports "${RMTSWEEP_PYTHON_MODULES}")
  execute_process(COMMAND ${python} -c "import ${imports}" RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(status EQUAL 0)
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()

if(NOT Python3_EXECUTABLE)
  set(path_dirs "$ENV{PATH}")
  if(NOT WIN32)
    string(REPLACE ":" ";" path_dirs "${path_dirs}")
  endif()
  foreach(dir IN LISTS path_dirs)
    if(dir AND EXISTS "${dir}/python3" AND NOT IS_DIRECTORY "${dir}/python3")
      rmtsweep_python_has_modules("${dir}/python3" has_modules)
      if(has_modules)
        set(Python3_EXECUTABLE "${dir}/python3" CACHE FILEPATH "The Python with h5py, numpy and xarray")
        break()
      endif()
    endif()
  endforeach()
endif()
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  rmtsweep_python_has_modules("${Python3_EXECUTABLE}" has_modules)
  if(NOT has_modules)
    string(REPLACE ";" ", " names "${RMTSWEEP_PYTHON_MODULES}")
    message(WARNING "${Python3_EXECUTABLE} does not import ${names}: `rmtsweep plot` and the Python tests will "
                    "fail; install them (scripts/install-deps.sh) or give -DPython3_EXECUTABLE=<a python that has them>")
  endif()
else()
  message(WARNING "no python3 found: `rmtsweep plot` and the Python tests need one with h5py, numpy and xarray")
endif()
