/* HDF5 alone, without heatrk4's in-process ZFP codec: whatever decodes or encodes ZFP here is the
   H5Z-ZFP plugin that HDF5 loads from HDF5_PLUGIN_PATH, as in any other HDF5 program.
     zfp_plugin_tool read FILE DATASET OUT.raw
       reads DATASET as doubles into OUT.raw; prints the name of the dataset's first filter
     zfp_plugin_tool write OUT.h5 float|double NZ NY NX CZ CY CX accuracy BOUND|reversible IN.raw
       writes IN.raw (doubles) as dataset /u chunked (CZ, CY, CX) through H5Z-ZFP (its generic
       cd_values) and Fletcher-32, as a user of the plugin would
   Exit 0 on success, 1 with HDF5's error stack printed otherwise. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char* what) {
  fprintf(stderr, "zfp_plugin_tool: %s failed\n", what);
  H5Eprint2(H5E_DEFAULT, stderr);
  return 1;
}

static int read_dataset(const char* path, const char* name, const char* out) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return fail("H5Fopen");
  hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  if (dataset < 0) return fail("H5Dopen2");
  hid_t layout = H5Dget_create_plist(dataset);
  char filter[128] = "none";
  unsigned flags = 0, config = 0;
  size_t count = 0;
  if (H5Pget_nfilters(layout) > 0) H5Pget_filter2(layout, 0, &flags, &count, NULL, sizeof filter, filter, &config);
  printf("filter: %s\n", filter);
  hid_t space = H5Dget_space(dataset);
  hssize_t points = H5Sget_simple_extent_npoints(space);
  double* values = malloc((size_t)points * sizeof(double));
  if (!values || H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) return fail("H5Dread");
  FILE* raw = fopen(out, "wb");
  if (!raw || fwrite(values, sizeof(double), (size_t)points, raw) != (size_t)points || fclose(raw) != 0)
    return fail("writing the raw file");
  free(values);
  H5Sclose(space);
  H5Pclose(layout);
  H5Dclose(dataset);
  return H5Fclose(file) < 0 ? fail("H5Fclose") : 0;
}

static int write_dataset(char** argv) {
  const int is_float = strcmp(argv[3], "float") == 0;
  hsize_t dims[3], chunk[3];
  for (int d = 0; d < 3; ++d) {
    dims[d] = strtoull(argv[4 + d], NULL, 10);
    chunk[d] = strtoull(argv[7 + d], NULL, 10);
  }
  /* H5Z-ZFP's generic interface: mode 3 (accuracy) with the bound's two words, or mode 5 (reversible). */
  unsigned cd_values[6] = {0};
  if (strcmp(argv[10], "accuracy") == 0) {
    const double bound = strtod(argv[11], NULL);
    cd_values[0] = 3;
    memcpy(&cd_values[2], &bound, sizeof bound);
  } else {
    cd_values[0] = 5;
  }
  const size_t points = (size_t)(dims[0] * dims[1] * dims[2]);
  double* values = malloc(points * sizeof(double));
  FILE* raw = fopen(argv[12], "rb");
  if (!values || !raw || fread(values, sizeof(double), points, raw) != points) return fail("reading the raw file");
  fclose(raw);
  hid_t file = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t space = H5Screate_simple(3, dims, NULL);
  hid_t layout = H5Pcreate(H5P_DATASET_CREATE);
  if (file < 0 || space < 0 || layout < 0 || H5Pset_chunk(layout, 3, chunk) < 0) return fail("creating the file");
  if (H5Pset_filter(layout, 32013, H5Z_FLAG_MANDATORY, 6, cd_values) < 0) return fail("H5Pset_filter(32013)");
  if (H5Pset_fletcher32(layout) < 0) return fail("H5Pset_fletcher32");
  hid_t dataset =
      H5Dcreate2(file, "u", is_float ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space, H5P_DEFAULT, layout, H5P_DEFAULT);
  if (dataset < 0) return fail("H5Dcreate2 (is the plugin on HDF5_PLUGIN_PATH?)");
  if (H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) return fail("H5Dwrite");
  free(values);
  H5Dclose(dataset);
  H5Pclose(layout);
  H5Sclose(space);
  return H5Fclose(file) < 0 ? fail("H5Fclose") : 0;
}

int main(int argc, char** argv) {
  if (argc == 5 && strcmp(argv[1], "read") == 0) return read_dataset(argv[2], argv[3], argv[4]);
  if (argc == 13 && strcmp(argv[1], "write") == 0) return write_dataset(argv);
  fprintf(stderr,
          "usage: zfp_plugin_tool read FILE DATASET OUT.raw\n"
          "       zfp_plugin_tool write OUT.h5 float|double NZ NY NX CZ CY CX accuracy BOUND|reversible IN.raw\n");
  return 2;
}
